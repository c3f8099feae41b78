//! `svc-sdk sandbox`: a sandbox of the binary's own flags, served over HTTP by the package's bin at the origin it listens on.

use crate::{log, Sandbox};
use sandbox::config::Config;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Sandbox {
    /// The sandbox of the binary's flags (`cargo run -p sandbox -- ARGS`), refused as the binary refuses them.
    #[wasm_bindgen(js_name = __fromArgs, skip_typescript)]
    pub fn from_args(args: Vec<String>) -> Result<Sandbox, JsError> {
        let config = Config::from_args(args).map_err(|e| JsError::new(&e))?;
        Sandbox::of(config, log::DEFAULT_LIMIT)
    }

    /// What the server does with the flags the app does not read: `[port, quiet, exitOnStdinEof]`.
    #[wasm_bindgen(js_name = __serving, skip_typescript)]
    pub fn serving(&self) -> Vec<u32> {
        let c = &self.config;
        vec![c.port.into(), c.quiet.into(), c.exit_on_stdin_eof.into()]
    }

    /// Serves it at `origin` (`http://127.0.0.1:PORT`): its answers' URLs (the accounts server's
    /// API domain, the device page, the consent's redirect) name it; the state starts anew.
    #[wasm_bindgen(js_name = __serveAt, skip_typescript)]
    pub fn serve_at(&mut self, origin: String) {
        self.origin = origin;
        self.reset();
    }
}
