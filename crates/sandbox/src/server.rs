//! The binary's HTTP server: hyper's HTTP/1.1 on tokio, a thin adapter over `App::begin` and `App::resume`.

use crate::app::{Answer, App, Platform, Step};
use crate::config::Config;
use crate::crm::{self, Delivery};
use crate::http::{
    Request, Response, BODY_TOO_LARGE, HEAD_TOO_LARGE, KEEP_ALIVE_SECS, MAX_BODY, MAX_HEAD,
};
use crate::time;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderName, HeaderValue, CONNECTION, CONTENT_LENGTH};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{StatusCode, Version};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use svc_core::catalog::Operation;
use svc_core::echo::shorten;
use tokio::runtime::Runtime;

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

/// How long an idle keep-alive connection is kept (longer than the advertised timeout), and the
/// most a request's head, then its body, may take to arrive.
const IDLE: Duration = Duration::from_secs(75);

/// A running sandbox; dropping it stops it and ends its connections.
pub struct Server {
    shared: Arc<App>,
    addr: SocketAddr,
    runtime: Option<Runtime>,
}

/// Binds 127.0.0.1 on the configured port, seeds the organization and starts serving.
pub fn start(config: Config) -> io::Result<Server> {
    start_with(config, &[])
}

/// `start`, also routing `extra` rows that the catalog does not have (yet); with no handler of
/// their own, they are served by the generic store.
pub fn start_with(config: Config, extra: &'static [Operation]) -> io::Result<Server> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", config.port))?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let base = format!("http://{addr}");
    let now = time::now_ms();
    let seed = now as u64 ^ u64::from(std::process::id());
    let app = App::new(config, base, extra, now, seed).map_err(io::Error::other)?;
    let shared = Arc::new(app);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("sandbox")
        .enable_all()
        .build()?;
    let listener = {
        let _entered = runtime.enter();
        tokio::net::TcpListener::from_std(listener)?
    };
    runtime.spawn(accept_loop(listener, shared.clone()));
    Ok(Server {
        shared,
        addr,
        runtime: Some(runtime),
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

    /// The sandbox's state, for a test that sets records up in place.
    pub fn app(&self) -> &App {
        &self.shared
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.block_on(std::future::pending::<()>());
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

async fn accept_loop(listener: tokio::net::TcpListener, shared: Arc<App>) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                let _ = stream.set_nodelay(true);
                tokio::spawn(serve(shared.clone(), stream));
            }
            Err(e) => {
                eprintln!("sandbox: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// One connection: hyper reads the heads (its buffer bounded near `MAX_HEAD`: 431 past it or past
/// 100 headers, 400 when malformed, closed when one takes longer than `IDLE`), keeps the connection
/// alive, and answers `100 Continue`; `read` then holds the head to `MAX_HEAD` exactly.
async fn serve(shared: Arc<App>, stream: tokio::net::TcpStream) {
    let service = service_fn(move |req| answer(shared.clone(), req));
    let _ = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(IDLE)
        .max_buf_size(MAX_HEAD)
        .serve_connection(TokioIo::new(stream), service)
        .await;
}

/// A fault that drops the call: the connection closes without an answer.
#[derive(Debug)]
struct Dropped;

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("the call is dropped")
    }
}

impl std::error::Error for Dropped {}

async fn answer(
    sh: Arc<App>,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Dropped> {
    let started = Instant::now();
    let req = match read(req).await {
        Ok(req) => req,
        Err((status, why)) => {
            let resp = sh.unreadable(status, why.into(), time::now_ms());
            return Ok(reply(resp, false));
        }
    };
    let keep = req.keep_alive();
    // The app's steps run to their end even when the client goes away (hyper then drops this
    // future): a held call is applied and gives its place in flight back, as the service's would.
    let (req, answer) = tokio::spawn(apply(sh.clone(), req))
        .await
        .map_err(|_| Dropped)??;
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
    resp.map(|resp| reply(resp, keep)).ok_or(Dropped)
}

/// A request through the app: its first step, and after a slow fault's wait, the second.
async fn apply(sh: Arc<App>, req: Request) -> Result<(Request, Answer), Dropped> {
    let (req, step) = blocking(sh.clone(), req, |sh, req| sh.begin(req, &Native)).await?;
    match step {
        Step::Done(answer) => Ok((req, answer)),
        Step::Wait(ms, held) => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            blocking(sh, req, move |sh, req| sh.resume(req, *held)).await
        }
    }
}

/// Runs a step of the app off the async threads: it locks the store and may post a callback.
async fn blocking<T: Send + 'static>(
    sh: Arc<App>,
    req: Request,
    f: impl FnOnce(&App, &Request) -> T + Send + 'static,
) -> Result<(Request, T), Dropped> {
    tokio::task::spawn_blocking(move || {
        let out = f(&sh, &req);
        (req, out)
    })
    .await
    .map_err(|_| Dropped)
}

/// The request as the app takes it, its body whole; or the status and reason to refuse it with
/// (a head over `MAX_HEAD`, counted as its lines, is 431; a body over `MAX_BODY` 413).
async fn read(req: hyper::Request<Incoming>) -> Result<Request, (u16, &'static str)> {
    let (parts, body) = req.into_parts();
    let head = parts.method.as_str().len() + parts.uri.to_string().len() + 12;
    let head = parts
        .headers
        .iter()
        .fold(head, |n, (k, v)| n + k.as_str().len() + v.len() + 4);
    if head > MAX_HEAD {
        return Err((431, HEAD_TOO_LARGE));
    }
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err((413, BODY_TOO_LARGE));
    }
    let body = match tokio::time::timeout(IDLE, Limited::new(body, MAX_BODY).collect()).await {
        Ok(Ok(body)) => body.to_bytes().to_vec(),
        Ok(Err(e)) if e.is::<LengthLimitError>() => return Err((413, BODY_TOO_LARGE)),
        Ok(Err(_)) => return Err((400, "the body could not be read")),
        Err(_) => return Err((408, "the body did not arrive in time")),
    };
    Ok(Request {
        method: parts.method.as_str().into(),
        path: parts.uri.path().into(),
        query: parts.uri.query().unwrap_or_default().into(),
        http10: parts.version == Version::HTTP_10,
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| {
                let v = String::from_utf8_lossy(v.as_bytes()).into_owned();
                (k.as_str().to_string(), v)
            })
            .collect(),
        body,
    })
}

/// The app's answer as hyper writes it (hyper adds `Content-Length` and leaves a HEAD's body out).
fn reply(resp: Response, keep: bool) -> hyper::Response<Full<Bytes>> {
    let mut out = hyper::Response::new(Full::new(Bytes::from(resp.body)));
    *out.status_mut() =
        StatusCode::from_u16(resp.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = out.headers_mut();
    for (k, v) in &resp.headers {
        if let (Ok(k), Ok(v)) = (
            HeaderName::try_from(k.as_str()),
            HeaderValue::try_from(v.as_str()),
        ) {
            headers.append(k, v);
        }
    }
    if keep {
        let timeout = format!("timeout={KEEP_ALIVE_SECS}");
        if let Ok(v) = HeaderValue::try_from(timeout) {
            headers.insert(HeaderName::from_static("keep-alive"), v);
        }
    } else {
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    out
}
