//! What a static plan costs: heap allocations counted by a global allocator.
//!
//! Counts are per thread, so the tests of this file can run in parallel.
//! The one `unsafe` of the workspace: a `GlobalAlloc` cannot be written without it.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use plan_core::{SessionId, SessionNotification, SessionUpdate, wire::Spelling};
use plan_harness::{STEPS_JSON, steps_by_hand, steps_by_macro};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// only addition is a thread-local counter that never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many allocations `f` makes on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let value = f();
    (ALLOCATIONS.with(Cell::get) - before, value)
}

#[test]
fn sending_a_static_plan_allocates_nothing() {
    let session = SessionId::new("sess_abc123def456");
    let mut line = Vec::with_capacity(1024);
    let (count, result) =
        allocations(|| STEPS_JSON.write_notification(&mut line, &session, Spelling::Acp));
    result.unwrap();
    assert_eq!(count, 0);
    // And it is the same line the built plan writes.
    let built = SessionNotification::new(session, steps_by_macro().into());
    assert_eq!(line, built.to_json(Spelling::Acp).into_bytes());
}

#[test]
fn a_literal_plan_allocates_only_its_entry_list() {
    let (count, plan) = allocations(steps_by_macro);
    assert_eq!(count, 1, "one Vec of entries; every string is borrowed");
    let (by_hand, same) = allocations(steps_by_hand);
    assert_eq!(plan, same);
    assert_eq!(by_hand, 6, "the Vec, the id and four contents");
}

#[test]
fn building_a_plan_allocates_writing_it_does_not() {
    let session = SessionId::new("sess_abc123def456");
    let message = SessionNotification::new(session.clone(), SessionUpdate::from(steps_by_macro()));
    let mut line = Vec::with_capacity(1024);
    let (count, result) = allocations(|| message.write_json(&mut line, Spelling::Acp));
    result.unwrap();
    assert_eq!(
        count, 0,
        "serializing into a reserved buffer allocates nothing either"
    );
    let (total, ()) = allocations(|| {
        let message = SessionNotification::new(session.clone(), steps_by_macro().into());
        line.clear();
        message.write_json(&mut line, Spelling::Acp).unwrap();
    });
    assert!(total >= 1, "building the value allocates its entry list");
}

/// A notification of `n` entries, each text built at run time.
fn runtime_plan(n: usize) -> SessionNotification {
    use plan_core::{PlanContent, PlanEntry, PlanId, Priority, Status};
    let entries = (0..n).map(|i| {
        PlanEntry::new(
            format!("Step {i}: refactor module {i}"),
            Priority::High,
            Status::Pending,
        )
    });
    let plan = PlanContent::items(PlanId::new("plan-1").unwrap(), entries);
    SessionNotification::new("sess_abc123def456", plan.into())
}

#[test]
fn a_conversion_moves_each_text_when_owned_and_copies_it_once_when_borrowed() {
    use agent_client_protocol::v1::schema as acp;
    let count = |n: usize| {
        let ours = runtime_plan(n);
        let (to_theirs, theirs) = allocations(|| acp::SessionNotification::try_from(ours));
        let theirs = theirs.unwrap();
        let (back, ours) = allocations(|| SessionNotification::try_from(theirs));
        assert_eq!(ours.unwrap(), runtime_plan(n));
        (to_theirs, back)
    };
    // What the number of entries changes is only what each entry costs:
    // nothing, when its text moves instead of being copied.
    assert_eq!(count(10), count(100));
    // Into the SDK's types: the list and the two ids (each copied once into
    // the SDK's `Arc<str>`), whatever the size.
    assert_eq!(count(100).0, 3);
    // Borrowed, each text is copied once and nothing else is: the list, the
    // two ids and each entry's text, both ways (no clone of the whole value
    // first).
    for n in [10, 100] {
        let ours = runtime_plan(n);
        let (to_theirs, theirs) =
            allocations(|| acp::SessionNotification::try_from(&ours).unwrap());
        assert_eq!(to_theirs, n + 3, "{n} entries into the SDK's types");
        let (back, same) = allocations(|| SessionNotification::try_from(&theirs).unwrap());
        assert_eq!(same, ours);
        assert_eq!(back, n + 3, "{n} entries back");
    }
}

/// Where a message's entry list lives.
fn entry_list(message: &SessionNotification) -> *const plan_core::PlanEntry {
    let SessionUpdate::PlanUpdate {
        plan: plan_core::PlanContent::Items { entries, .. },
        ..
    } = &message.update
    else {
        panic!("an items plan")
    };
    entries.as_ptr()
}

#[test]
fn an_owned_conversion_into_the_sdk_builds_its_list_in_ours() {
    use agent_client_protocol::v1::schema as acp;
    // What lets the list be reused: with this build's SDK an entry of
    // theirs fits in the place of one of ours.
    assert!(size_of::<acp::PlanEntry>() <= size_of::<plan_core::PlanEntry>());
    assert_eq!(
        align_of::<acp::PlanEntry>(),
        align_of::<plan_core::PlanEntry>()
    );
    for n in [1, 10, 100] {
        let ours = runtime_plan(n);
        let list = entry_list(&ours).addr();
        let theirs = acp::SessionNotification::try_from(ours).unwrap();
        let acp::SessionUpdate::PlanUpdate(update) = theirs.update else {
            panic!("a plan update")
        };
        let acp::PlanUpdateContent::Items(items) = update.plan else {
            panic!("an items plan")
        };
        assert_eq!(items.entries.len(), n);
        assert_eq!(items.entries.as_ptr().addr(), list, "{n} entries");
    }
}

#[test]
fn to_json_allocates_its_text_once_whatever_its_size() {
    for n in [0, 10, 100, 1000] {
        let message = runtime_plan(n);
        let (count, text) = allocations(|| message.to_json(Spelling::Acp));
        assert_eq!(count, 1, "{n} entries: {} bytes", text.len());
        let mut line = Vec::new();
        message.write_json(&mut line, Spelling::Acp).unwrap();
        assert_eq!(text.into_bytes(), line);
    }
}
