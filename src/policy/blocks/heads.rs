//! The head loop: start the jobs at the head of a queue while they fit.

use crate::sim::{Ctx, SimError, StartReason};

/// Starts the jobs of `queue` in order while the first one fits (each planned to end after its
/// estimate; reason `head`); returns the position of the first job left waiting (`queue.len()` when all
/// started).
pub fn start_while_fit(c: &mut Ctx<'_>, queue: &[usize]) -> Result<usize, SimError> {
    let mut first = 0;
    while let Some(&head) = queue.get(first) {
        if !c.fits(head) {
            break;
        }
        let end = c.now() + c.estimate(head);
        c.start_as(head, Some(StartReason::Head), None, Some(end))?;
        first += 1;
    }
    Ok(first)
}

/// [`start_while_fit`] over the waiting jobs in arrival order (priority = arrival).
pub fn start_arrivals_while_fit(c: &mut Ctx<'_>) -> Result<(), SimError> {
    while let Some(&head) = c.waiting().first() {
        if !c.fits(head) {
            break;
        }
        let end = c.now() + c.estimate(head);
        c.start_as(head, Some(StartReason::Head), None, Some(end))?;
    }
    Ok(())
}
