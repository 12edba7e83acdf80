// A stream with no message is a mistake (a wrong file, or one not yet recorded).
use plan_core::include_plan_stream;

fn main() {
    let stream = include_plan_stream!("../../../../tests/ui/include_plan_stream/empty.ndjson");
    println!("{}", stream.len());
}
