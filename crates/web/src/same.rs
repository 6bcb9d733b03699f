//! The tests' yardstick: the command line's answer to the same question (asked through
//! diemon-study, as `diemon ... --json` asks it), and a key-for-key comparison.

use std::sync::atomic::AtomicBool;

use serde_json::Value;

use crate::run::Stepped;
use diemon_core::options::RuleOptions;
use diemon_core::sim::progress::Silent;
use diemon_study::question::Asked;

/// `diemon LINE --json`'s answer.
pub fn cli(line: &str) -> Value {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    let (asked, opts) = Asked::parse(&args, &RuleOptions::default(), None).unwrap();
    let a = asked.ask(&opts, &Silent, &AtomicBool::new(false)).unwrap();
    serde_json::to_value(a).unwrap()
}

/// A run stepped `size` trials at a time to its end, and its answer.
pub fn stepped(r: &mut dyn Stepped, size: u64) -> Value {
    while !r.step(size) {}
    r.answer(1.0).unwrap()
}

/// Every key both answers give is equal, measurements and `skip` aside; and they share
/// the figures (more than a handful of keys).
pub fn assert_same(page: &Value, cli: &Value, skip: &[&str]) {
    let (Value::Object(p), Value::Object(c)) = (page, cli) else {
        panic!("not objects: {page} / {cli}");
    };
    let mut shared = 0;
    for (k, v) in c {
        if ["trials_per_sec", "threads", "command"].contains(&k.as_str())
            || skip.contains(&k.as_str())
        {
            continue;
        }
        if let Some(w) = p.get(k) {
            assert_eq!(w, v, "key {k}");
            shared += 1;
        }
    }
    assert!(shared > 10, "only {shared} keys shared");
}
