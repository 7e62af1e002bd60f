//! The head loop: start the jobs at the head of a queue while they fit.
#![warn(missing_docs)]

use crate::policy::queue::Queue;
use crate::sim::{Ctx, SimError, StartReason};

/// Starts the jobs of `queue` in order while the first one fits (each planned to end after its
/// estimate; reason `head`); returns the position of the first job left waiting (`queue.len()` when all
/// started).
pub fn start_while_fit(c: &mut Ctx<'_>, queue: &[usize]) -> Result<usize, SimError> {
    start_heads(c, &mut Queue::fixed(queue))
}

/// [`start_while_fit`] over a queue read as far as needed: up to the first job that does not
/// fit.
pub fn start_heads(c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<usize, SimError> {
    start_heads_as(c, queue, StartReason::Head)
}

/// [`start_heads`] for the stated reason.
pub fn start_heads_as(
    c: &mut Ctx<'_>,
    queue: &mut Queue<'_>,
    reason: StartReason,
) -> Result<usize, SimError> {
    let mut first = 0;
    loop {
        let chunk = queue.from(c, first);
        if chunk.is_empty() {
            return Ok(first);
        }
        for &head in chunk {
            if !c.fits(head) {
                return Ok(first);
            }
            let end = c.now() + c.estimate(head);
            c.start_as(head, Some(reason), None, Some(end))?;
            first += 1;
        }
    }
}

/// [`start_while_fit`] over the waiting jobs in arrival order (priority = arrival).
pub fn start_arrivals_while_fit(c: &mut Ctx<'_>) -> Result<(), SimError> {
    while let Some(head) = c.waiting().first() {
        if !c.fits(head) {
            break;
        }
        let end = c.now() + c.estimate(head);
        c.start_as(head, Some(StartReason::Head), None, Some(end))?;
    }
    Ok(())
}
