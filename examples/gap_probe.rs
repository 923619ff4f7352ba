use codemode::{Limits, Output, Registry, Runtime};
use std::sync::Arc;
use std::time::{Duration, Instant};
fn main() {
    let world = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/mcp");
    let registry = Arc::new(Registry::open(&world, &[], true).unwrap());
    let mut rt = Runtime::new(registry, Limits::default()).unwrap();
    for gap_us in [0u64, 20, 50, 100, 200] {
        let mut ts = vec![];
        for _ in 0..2000 {
            if gap_us > 0 {
                std::thread::sleep(Duration::from_micros(gap_us));
            }
            let t = Instant::now();
            let e = rt.exec(
                r#"return tools.text.slugify("Hello MCP World")"#,
                Output::Capture,
            );
            ts.push(t.elapsed());
            assert!(e.ok);
        }
        ts.sort();
        println!(
            "sleep {gap_us:4} us between runs: median exec {:?}",
            ts[1000]
        );
    }
    // busy gap: spin instead of sleeping
    let mut ts = vec![];
    for _ in 0..2000 {
        let s = Instant::now();
        while s.elapsed() < Duration::from_micros(100) {}
        let t = Instant::now();
        rt.exec(
            r#"return tools.text.slugify("Hello MCP World")"#,
            Output::Capture,
        );
        ts.push(t.elapsed());
    }
    ts.sort();
    println!("spin 100 us between runs: median exec {:?}", ts[1000]);
}
