//! The binary's HTTP server: a thin adapter of sockets and threads over `App::begin` and `App::resume`.

use crate::app::{App, Platform, Step};
use crate::config::Config;
use crate::crm::{self, Delivery};
use crate::http::{self, Conn, ReadError};
use crate::time;
use std::io;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};
use svc_core::catalog::Operation;
use svc_core::echo::shorten;

/// The host of the binary: the system clock and callbacks over loopback HTTP.
struct Native;

impl Platform for Native {
    fn now_ms(&self) -> i64 {
        time::now_ms()
    }

    fn deliver(&self, delivery: &Delivery) -> Result<u16, String> {
        crm::deliver(delivery)
    }
}
/// How long an idle keep-alive connection is kept (longer than the advertised timeout).
const IDLE: Duration = Duration::from_secs(75);

/// A running sandbox; dropping it stops accepting connections.
pub struct Server {
    shared: Arc<App>,
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

/// Binds 127.0.0.1 on the configured port, seeds the organization and starts serving.
pub fn start(config: Config) -> io::Result<Server> {
    start_with(config, &[])
}

/// `start`, also routing `extra` rows that the catalog does not have (yet); with no handler of
/// their own, they are served by the generic store.
pub fn start_with(config: Config, extra: &'static [Operation]) -> io::Result<Server> {
    let listener = TcpListener::bind(("127.0.0.1", config.port))?;
    let addr = listener.local_addr()?;
    let base = format!("http://{addr}");
    let now = time::now_ms();
    let seed = now as u64 ^ u64::from(std::process::id());
    let app = App::new(config, base, extra, now, seed).map_err(io::Error::other)?;
    let shared = Arc::new(app);
    let stop = Arc::new(AtomicBool::new(false));
    let accept = {
        let (shared, stop) = (shared.clone(), stop.clone());
        thread::Builder::new()
            .name("sandbox-accept".into())
            .spawn(move || accept_loop(listener, shared, stop))?
    };
    Ok(Server {
        shared,
        addr,
        stop,
        accept: Some(accept),
    })
}

impl Server {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT`
    pub fn url(&self) -> &str {
        self.shared.url()
    }

    pub fn org_id(&self) -> &str {
        &self.shared.config.org_id
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(h) = self.accept.take() {
            self.stop.store(true, Ordering::SeqCst);
            let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
            let _ = h.join();
        }
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<App>, stop: Arc<AtomicBool>) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        match stream {
            Ok(stream) => {
                let sh = shared.clone();
                if let Err(e) = thread::Builder::new()
                    .name("sandbox-conn".into())
                    .spawn(move || serve(&sh, stream))
                {
                    eprintln!("sandbox: cannot start a connection thread: {e}");
                }
            }
            Err(e) => {
                eprintln!("sandbox: accept failed: {e}");
                thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

fn serve(sh: &App, stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(IDLE));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let mut conn = Conn::new(stream);
    loop {
        let req = match conn.read_request() {
            Ok(req) => req,
            Err(ReadError::Bad(status, why)) => {
                let resp = sh.unreadable(status, why, time::now_ms());
                let _ = http::write_response(conn.stream_mut(), &resp, false, false);
                return;
            }
            Err(_) => return,
        };
        let started = Instant::now();
        let keep = req.keep_alive();
        let answer = match sh.begin(&req, &Native) {
            Step::Done(answer) => answer,
            Step::Wait(ms, held) => {
                thread::sleep(Duration::from_millis(ms));
                sh.resume(&req, *held)
            }
        };
        let (resp, what) = (answer.response, answer.what);
        if !sh.config.quiet {
            let status = resp
                .as_ref()
                .map_or_else(|| "dropped".to_string(), |r| r.status.to_string());
            let ms = started.elapsed().as_millis();
            eprintln!(
                "{} {} -> {status} {what} {ms}ms",
                req.method,
                shorten(&req.path)
            );
        }
        let Some(resp) = resp else {
            let _ = conn.stream().shutdown(Shutdown::Both);
            return;
        };
        if http::write_response(conn.stream_mut(), &resp, keep, req.method == "HEAD").is_err()
            || !keep
        {
            return;
        }
    }
}
