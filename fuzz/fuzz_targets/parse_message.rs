//! Any bytes, read as every kind of message in both modes: never a panic;
//! whatever reads writes back and reads again to the same value in both
//! spellings; the streaming and the reference reader agree; a markdown plan
//! read strictly has an absolute `path` or none (the stabilized protocol).
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan_core::{PlanContent, SessionNotification, SessionUpdate, wire::{ClientCapabilities, Spelling}};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = ClientCapabilities::from_json(text);
    let _ = ClientCapabilities::from_json_lenient(text);
    let _ = PlanContent::from_json_lenient(text);
    let _ = SessionUpdate::from_json_lenient(text);
    let _ = SessionNotification::from_json_lenient(text);

    let streamed = SessionNotification::from_json(text);
    // A repeated key is an error for the streaming reader; a `Value` has
    // already dropped all but the last, so the readers are compared without.
    let repeated = |r: &Result<_, plan_core::Error>| r.as_ref().is_err_and(|e| e.to_string().contains("appears twice"));
    let any_repeated = repeated(&streamed.as_ref().map(drop).map_err(Clone::clone))
        || repeated(&SessionUpdate::from_json(text).map(drop))
        || repeated(&PlanContent::from_json(text).map(drop));
    if let (false, Ok(value)) = (any_repeated, serde_json::from_str::<serde_json::Value>(text)) {
        let reference = SessionNotification::from_value(value.clone());
        assert_eq!(streamed.as_ref().ok(), reference.as_ref().ok(), "the readers disagree on {text}");
        assert_eq!(SessionUpdate::from_json(text).ok(), SessionUpdate::from_value(value.clone()).ok());
        assert_eq!(PlanContent::from_json(text).ok(), PlanContent::from_value(value).ok());
    }
    if let Ok(message) = streamed {
        if let SessionUpdate::PlanUpdate { plan, .. } = &message.update
            && let Some(path) = plan.path()
        {
            assert!(plan_core::AbsolutePath::new(path.as_str().to_owned()).is_ok(), "{text}");
        }
        for spelling in [Spelling::Rfd, Spelling::Acp] {
            let written = message.to_json(spelling);
            assert_eq!(SessionNotification::from_json(&written).as_ref(), Ok(&message), "{written}");
            let _ = message.check();
        }
    }
});
