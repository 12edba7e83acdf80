// Several mistakes in one mapping enum are all reported, each on its own token.
#[derive(plan_core::PlanStatus)]
enum Todo {
    #[status(in_progres)]
    Doing,
    #[status(blocked)]
    Blocked,
    Waiting(u8),
    #[status(pending)]
    #[status(completed)]
    Done,
}

fn main() {}
