// One misuse of `#[derive(plan_core::PlanStatus)]`, and code that uses the
// conversions: only the misuse is reported, not a missing `From` impl.
use plan_core::Status;

#[derive(plan_core::PlanStatus)]
enum Todo {
    #[status(in_progres)]
    Doing,
}

fn main() {
    let status = Status::from(Todo::Doing);
    let _ = Todo::try_from(&status);
}
