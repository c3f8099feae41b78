//! The page build's stand-ins for what runs on a server only (the receivers, the edge proxy, the fleet
//! stores): each is a config error that says where it runs, so a page's bundle carries none of them.

use super::to_js_error;
use svc_core::error::Error;
use wasm_bindgen::prelude::*;

fn on_a_server(what: &str) -> JsValue {
    to_js_error(&Error::config(format!(
        "{what} runs on a server or an edge worker (Node, Deno, workerd), not in a page: \
svc-sdk's browser build leaves it out"
    )))
}

#[wasm_bindgen(js_name = parseWatchNotification, skip_typescript)]
pub fn parse_watch_notification(_body: JsValue, _options: JsValue) -> Result<JsValue, JsValue> {
    Err(on_a_server("parseWatchNotification"))
}

#[wasm_bindgen(js_name = parseEvent, skip_typescript)]
pub fn parse_event(_body: JsValue, _options: JsValue) -> Result<JsValue, JsValue> {
    Err(on_a_server("parseEvent"))
}

/// `createProxy`'s wasm half, which a page cannot make.
#[wasm_bindgen(js_name = __Proxy, skip_typescript)]
pub struct Proxy;

#[wasm_bindgen(js_class = __Proxy)]
impl Proxy {
    #[wasm_bindgen(constructor)]
    pub fn new(_options: JsValue) -> Result<Proxy, JsValue> {
        Err(on_a_server("createProxy"))
    }
}

/// `createConnections`' wasm half, which a page cannot make: it holds the client secret.
#[wasm_bindgen(js_name = __Connections, skip_typescript)]
pub struct Connections;

#[wasm_bindgen(js_class = __Connections)]
impl Connections {
    #[wasm_bindgen(constructor)]
    pub fn new(_options: JsValue) -> Result<Connections, JsValue> {
        Err(on_a_server("createConnections"))
    }
}

/// A page has no fleet store: `rateLimit.store` is a config error there.
pub mod store {
    use wasm_bindgen::JsValue;

    /// What `rateLimit.store` is in a page.
    pub const USAGE: &str = "rateLimit.store runs on a server or an edge worker (Node, Deno, \
workerd), not in a page: a page's calls go through your proxy, whose client holds the store";

    /// Never made: `new` refuses every object.
    #[derive(Clone)]
    pub struct Store;

    impl Store {
        pub fn new(_object: JsValue, _key: String) -> Option<Store> {
            None
        }

        pub async fn step(&self, _key: Option<String>, _request: String) -> Result<String, String> {
            Err(USAGE.into())
        }
    }
}
