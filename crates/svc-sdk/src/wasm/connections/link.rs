//! A connection's client's way to its transport: made from the connection's record, made anew when the grant changes.

use super::inner::Inner;
use crate::connect::record::Status;
use crate::secret::Secret;
use crate::send::{within, Deadline, Failure, Transport};
use crate::wasm::client::{transport_of, Later, Soon};
use crate::wasm::options::Options;
use crate::wasm::platform::Js;
use std::cell::RefCell;
use std::rc::Rc;
use svc_core::error::{Error, ErrorKind};
use wasm_bindgen::JsValue;

/// One client's link to its connection.
pub struct Link {
    inner: Rc<Inner>,
    id: String,
    opts: Options,
    /// The transport of the grant last read (its sealed refresh token).
    ready: RefCell<Option<(Rc<Transport<Js>>, Secret)>>,
}

impl Link {
    pub(super) fn new(inner: Rc<Inner>, id: String, opts: Options) -> Link {
        Link {
            inner,
            id,
            opts,
            ready: RefCell::default(),
        }
    }

    async fn current(&self) -> Result<Rc<Transport<Js>>, Failure> {
        let record = self.inner.current(&self.id).await?;
        if record.status == Status::Reauthorize {
            let message = format!(
                "connection {} must be authorized again: its grant was revoked (send its user to connections.authorizeUrl)",
                svc_core::echo::quoted(&self.id)
            );
            return Err(Error::new(ErrorKind::Unauthorized, message)
                .with_reauthorize()
                .into());
        }
        if let Some((t, sealed)) = self.ready.borrow().as_ref() {
            if *sealed == record.sealed {
                return Ok(t.clone());
            }
        }
        let grant = self.inner.grant(&record)?;
        let mut opts = self.opts.clone();
        opts.credential = crate::send::Credential::OAuth(grant);
        let t = Rc::new(transport_of(&opts));
        *self.ready.borrow_mut() = Some((t.clone(), record.sealed.clone()));
        Ok(t)
    }

    async fn learn(&self, f: Failure) -> Failure {
        if !f.error.reauthorize() {
            return f;
        }
        let sealed = self.ready.borrow_mut().take().map(|(_, s)| s);
        match sealed {
            Some(sealed) if !self.inner.reauthorize(&self.id, &sealed).await => Error::new(
                ErrorKind::Unauthorized,
                format!(
                    "connection {} was authorized again while this call ran with its old grant: call again",
                    svc_core::echo::quoted(&self.id)
                ),
            )
            .into(),
            _ => f,
        }
    }
}

impl Later for Link {
    fn ready(&self) -> Option<Rc<Transport<Js>>> {
        self.ready.borrow().as_ref().map(|(t, _)| t.clone())
    }

    fn transport<'a>(
        &'a self,
        deadline: Deadline,
        signal: Option<&'a JsValue>,
    ) -> Soon<'a, Result<Rc<Transport<Js>>, Failure>> {
        Box::pin(within(
            &self.inner.platform,
            deadline,
            signal,
            self.current(),
        ))
    }

    fn failed(&self, f: Failure) -> Soon<'_, Failure> {
        Box::pin(self.learn(f))
    }
}
