// Several mistakes in one call are all reported, each on its own token.
use plan_core::plan;

fn main() {
    let _ = plan! {
        id: "",
        items: [
            urgent pending "Ship it",
            high in_progess "Test it",
            high _ "",
        ],
        colour: "blue",
    };
}
