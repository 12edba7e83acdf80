// `#[derive(Steps)]` on a generic enum (refused: a plan's steps are fixed),
// and code that runs it: only the misuse is reported. The stub impl covers
// the generic type, so no missing `Steps` impl follows.
use plan_core::Steps;

#[derive(Steps)]
enum Refactor<T> {
    /// Analyze
    Analyze,
    /// Never built
    Other(std::marker::PhantomData<T>),
}

fn main() {
    let _ = Refactor::<u8>::start();
}
