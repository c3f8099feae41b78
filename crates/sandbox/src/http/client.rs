//! One request over a fresh loopback connection and its whole answer, on hyper's client.

use super::{ClientResponse, MAX_BODY};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

/// Sends one request on a fresh connection (`Connection: close`) and reads the whole answer
/// (at most `MAX_BODY`), all within `timeout`.
pub fn send(
    addr: SocketAddr,
    host: &str,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    timeout: Duration,
) -> io::Result<ClientResponse> {
    let mut request = hyper::Request::builder()
        .method(method)
        .uri(target)
        .header("Host", host)
        .header("Connection", "close");
    if !body.is_empty() || matches!(method, "POST" | "PUT" | "PATCH") {
        request = request.header("Content-Length", body.len());
    }
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let request = request
        .body(Full::new(Bytes::copy_from_slice(body)))
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        tokio::time::timeout(timeout, exchange(addr, request))
            .await
            .unwrap_or_else(|_| {
                Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "no whole answer in time",
                ))
            })
    })
}

async fn exchange(
    addr: SocketAddr,
    request: hyper::Request<Full<Bytes>>,
) -> io::Result<ClientResponse> {
    let stream = tokio::net::TcpStream::connect(addr).await?;
    let (mut sender, conn) = http1::handshake(TokioIo::new(stream))
        .await
        .map_err(io::Error::other)?;
    tokio::spawn(conn);
    let answer = sender
        .send_request(request)
        .await
        .map_err(io::Error::other)?;
    let (parts, body) = answer.into_parts();
    let body = Limited::new(body, MAX_BODY)
        .collect()
        .await
        .map_err(io::Error::other)?
        .to_bytes();
    Ok(ClientResponse {
        status: parts.status.as_u16(),
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| {
                let v = String::from_utf8_lossy(v.as_bytes()).into_owned();
                (k.as_str().to_string(), v)
            })
            .collect(),
        body: body.to_vec(),
    })
}
