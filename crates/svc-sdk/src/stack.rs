//! A call's error stack: the heading of the error over the frames of the call's site, from the SDK's public method on.

/// The file of a V8 stack frame (`at f (file:1:2)`, `at file:1:2`), without its line and column.
fn file_of(frame: &str) -> &str {
    let place = frame.trim().trim_end_matches(')');
    let place = place.rsplit_once(" (").map_or(place, |(_, p)| p);
    let place = place.strip_prefix("at ").unwrap_or(place);
    let mut parts = place.rsplitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(_), Some(_), Some(file)) => file,
        _ => place,
    }
}

/// The stack of `own`'s heading (its name and message) over the frames of `site` from the SDK's
/// public method on (`__calledFrom`).
pub fn with_frames(own: &str, site: &str) -> String {
    let heading = own
        .find("\n    at ")
        .map_or(own.trim_end(), |at| &own[..at]);
    let frames: Vec<&str> = site
        .lines()
        .filter(|l| l.trim_start().starts_with("at "))
        .collect();
    let sdk = frames.first().map(|f| file_of(f));
    let glue = frames
        .iter()
        .take_while(|f| Some(file_of(f)) == sdk)
        .count();
    let mut stack = heading.to_string();
    for frame in &frames[glue.saturating_sub(1)..] {
        stack.push('\n');
        stack.push_str(frame);
    }
    stack
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_opens_with_the_public_method_then_the_caller() {
        let own = "SvcError: no such\naccount\n    at __wbg_new_0 (file:///app/node_modules/svc-sdk/pkg/node.js:10:5)\n    at wasm://wasm/00a1:wasm-function[392]:0x1f\n    at __settle (file:///app/node_modules/svc-sdk/pkg/node.js:20:3)";
        let site = "Error\n    at viaCore (file:///app/node_modules/svc-sdk/pkg/node.js:30:70)\n    at invoke (file:///app/node_modules/svc-sdk/pkg/node.js:40:16)\n    at Client.listAccounts (file:///app/node_modules/svc-sdk/pkg/node.js:50:9)\n    at main (file:///app/main.mjs:3:24)\n    at file:///app/main.mjs:9:1";
        assert_eq!(
            with_frames(own, site),
            "SvcError: no such\naccount\n    at Client.listAccounts (file:///app/node_modules/svc-sdk/pkg/node.js:50:9)\n    at main (file:///app/main.mjs:3:24)\n    at file:///app/main.mjs:9:1"
        );
        assert_eq!(
            file_of("    at file:///app/main.mjs:9:1"),
            "file:///app/main.mjs"
        );
        assert_eq!(
            file_of("    at async f (node:internal/x:1:2)"),
            "node:internal/x"
        );
        assert_eq!(with_frames("SvcError: x", "Error"), "SvcError: x");
    }
}
