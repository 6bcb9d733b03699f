//! Work that blocks on pools of its own, spread over plain threads.
//!
//! Every cell asks its question on a rayon pool of its own (`--threads`). A rayon worker
//! that waits on another pool steals the next job of its own into the same stack, so cells
//! asked from nested `par_iter`s (a roster's readings, a price's experiments, their
//! distances, their pairs of conducts) pile up stack frames until one overflows. [`each`]
//! runs such work on plain threads, which simply block.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `f` of every item, in the items' order, on as many plain threads as the global pool has
/// workers (at most one per item). Every item is tried, whatever the others answer.
pub fn each<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let workers = rayon::current_num_threads().clamp(1, items.len().max(1));
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, f(item)));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            // A worker that panicked takes the whole run down with it, as `par_iter` would.
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_answers_every_item_in_order() {
        let items: Vec<u64> = (0..100).collect();
        assert_eq!(
            each(&items, |&x| x * x),
            items.iter().map(|x| x * x).collect::<Vec<_>>()
        );
        assert!(each(&[] as &[u64], |&x| x).is_empty());
    }
}
