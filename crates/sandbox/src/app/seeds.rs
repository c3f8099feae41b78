//! App::seed: records made by calls that meet a request's rules and handler.

use super::pipeline::apply;
use super::state::{operations, App};
use crate::call::Req;
use crate::error::{code, ApiError};
use crate::record::Value;
use svc_core::catalog::Operation;
use svc_core::echo::shorten;
use svc_core::family::OrgPlacement;
use svc_json::json;

impl App {
    /// Seeds records: `args` are a call's arguments as a client takes them (path values, then params,
    /// or a list of params for one call each). Each call meets the rules and the handler a request
    /// meets, in the sandbox's organization, without token, limits or faults; the answer is the
    /// resource as a client returns it (a list of them for a list), or the error a request would get.
    pub fn seed(&self, op_id: &str, args: &[Value], now: i64) -> Result<Value, ApiError> {
        let op = operations().find(|op| op.id == op_id).ok_or_else(|| {
            ApiError::bad(
                code::NO_ROUTE,
                format!("There is no operation {:?}.", shorten(op_id)),
            )
        })?;
        let names: Vec<&str> = op.path_params().collect();
        if args.len() < names.len() || args.len() > names.len() + 1 {
            return Err(ApiError::bad(
                code::BAD_REQUEST,
                format!(
                    "{} takes {} path value(s), then its params; got {} argument(s).",
                    op.id,
                    names.len(),
                    args.len()
                ),
            ));
        }
        let mut path = Vec::new();
        for (name, v) in names.iter().zip(args) {
            let Value::Str(value) = v else {
                return Err(ApiError::bad(
                    code::BAD_REQUEST,
                    format!("{name} must be a string (ids are strings so that no digit is lost)."),
                ));
            };
            path.push((name.to_string(), value.to_string()));
        }
        match args.get(names.len()).cloned().unwrap_or(json!({})) {
            Value::Arr(list) => list
                .into_iter()
                .map(|params| self.seed_one(op, &path, params, now))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Arr),
            params => self.seed_one(op, &path, params, now),
        }
    }

    fn seed_one(
        &self,
        op: &'static Operation,
        path: &[(String, String)],
        params: Value,
        now: i64,
    ) -> Result<Value, ApiError> {
        let Value::Obj(params) = params else {
            return Err(ApiError::bad(
                code::BAD_REQUEST,
                format!("The params of {} must be an object.", op.id),
            ));
        };
        let org = match op.family.org_placement() {
            OrgPlacement::None => String::new(),
            _ if !op.org => String::new(),
            _ => self.config.org_id.clone(),
        };
        let call = Req {
            op,
            org: &org,
            path,
            params: &params,
            files: &[],
            now_ms: now,
            base: &self.base,
            reach: &crate::accounts::Reach::Every,
        };
        let resp = apply(self, &call, Vec::new())?;
        let decoded =
            svc_core::response::decode(op, resp.status, resp.header("content-type"), &resp.body)
                .map_err(|e| ApiError::new(500, code::INTERNAL, e.message))?;
        match decoded {
            svc_core::response::Decoded::Json(text) => crate::record::parse(text.as_bytes())
                .map_err(|e| ApiError::new(500, code::INTERNAL, e)),
            svc_core::response::Decoded::Binary => Err(ApiError::bad(
                code::BAD_REQUEST,
                format!("{} answers a file, not a record.", op.id),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn seeds_meet_the_rules_and_handler_of_a_request() {
        let config = Config::from_args(Vec::<String>::new()).unwrap();
        let app = App::new(config, "http://x".into(), &[], 1_700_000_000_000, 1).unwrap();
        let now = 1_700_000_000_000;
        let vans = json!({ "fixed_asset_type_name": "Vans", "depreciation_method": "straight_line", "depreciation_frequency": "monthly" });
        let made = app.seed("createFixedAssetType", &[vans], now).unwrap();
        let id = made["fixed_asset_type_id"].as_str().unwrap().to_string();
        let listed = app
            .seed("listFixedAssetTypes", &[], now)
            .unwrap()
            .to_string();
        assert!(listed.contains(&format!("\"{id}\"")), "{listed}");
        let two = json!([{ "fixed_asset_type_name": "A", "depreciation_method": "straight_line", "depreciation_frequency": "monthly" }, { "fixed_asset_type_name": "B", "depreciation_method": "straight_line", "depreciation_frequency": "monthly" }]);
        assert_eq!(
            app.seed("createFixedAssetType", &[two], now)
                .unwrap()
                .as_array()
                .unwrap()
                .len(),
            2
        );
        let refused = app
            .seed(
                "createFixedAssetType",
                &[json!({ "depreciation_method": "sideways" })],
                now,
            )
            .unwrap_err();
        assert_eq!((refused.status, refused.code), (400, code::INVALID));
        assert_eq!(app.seed("nope", &[], now).unwrap_err().code, code::NO_ROUTE);
        let numeric = app
            .seed(
                "updateFixedAssetType",
                &[json!(9007199254740993_u64), json!({})],
                now,
            )
            .unwrap_err();
        assert!(
            numeric
                .message
                .contains("must be a string (ids are strings"),
            "a number's digits may be lost before a path value is read: {}",
            numeric.message
        );
        assert_eq!(
            app.seed("deleteFixedAssetType", &[], now).unwrap_err().code,
            code::BAD_REQUEST
        );
    }
}
