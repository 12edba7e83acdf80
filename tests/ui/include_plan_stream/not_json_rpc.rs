// A stream holds whole JSON-RPC messages, not bare updates or other JSON.
use plan_core::include_plan_stream;

fn main() {
    let stream = include_plan_stream!("../../../../tests/ui/include_plan_stream/not_json_rpc.ndjson");
    println!("{}", stream.len());
}
