// Every mistake of every line of a recorded stream is reported together,
// each with its line, column and JSON path; good lines (a response, another
// session update) and blank lines pass.
use plan_core::include_plan_stream;

fn main() {
    let stream = include_plan_stream!("../../../../tests/ui/include_plan_stream/many_errors.ndjson");
    println!("{}", stream.len());
}
