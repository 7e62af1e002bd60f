//! The busy-processor and queue-length series of a schedule, kept compact: each point is three
//! LEB128 numbers, its time after the previous point's and its changes of busy processors and
//! of waiting jobs (zigzag-mapped: small changes either way take one byte). A point of a real trace takes 3 to 6 bytes
//! instead of 16, and about two are kept per job. The points are read back in order through
//! [`Series::iter`], exactly as they were pushed.

use crate::Time;
use serde::Serialize;

/// Machine state after the events of one instant: busy processors and waiting jobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct SeriesPoint {
    pub time: Time,
    pub busy: u32,
    pub queued: u32,
}

/// Most bytes one point takes: a 64-bit time step (10) and two changes of 32-bit counts (5 each).
const MAX_POINT_BYTES: usize = 20;

/// Points in time order, delta-encoded (see the module documentation). Serialised as the list
/// of its points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Series {
    bytes: Vec<u8>,
    len: usize,
    last: Option<SeriesPoint>,
}

impl Series {
    /// An empty series with room for `bytes` bytes of points (a real trace's point takes 3 to
    /// 6; the room grows by a quarter at a time when it runs out).
    pub(crate) fn with_room(bytes: usize) -> Series {
        Series {
            bytes: Vec::with_capacity(bytes),
            len: 0,
            last: None,
        }
    }

    /// Appends a point (at a time not before the last one's, as the engine's instants come).
    pub(crate) fn push(&mut self, p: SeriesPoint) {
        // Growing a quarter at a time: a doubling vector holds its old and new room while it
        // moves, and in a wasm memory, which never shrinks, leaves the old room behind it.
        if self.bytes.capacity() - self.bytes.len() < MAX_POINT_BYTES {
            self.bytes
                .reserve_exact(self.bytes.len() / 4 + 4 * MAX_POINT_BYTES);
        }
        let prev = self.last.unwrap_or_default();
        let mut buf = [0; MAX_POINT_BYTES];
        let mut at = put(&mut buf, 0, p.time.wrapping_sub(prev.time) as u64);
        at = put(
            &mut buf,
            at,
            zigzag(i64::from(p.busy) - i64::from(prev.busy)),
        );
        at = put(
            &mut buf,
            at,
            zigzag(i64::from(p.queued) - i64::from(prev.queued)),
        );
        // The whole buffer then the length: a copy of a known size, no call to a copy routine.
        let len = self.bytes.len() + at;
        self.bytes.extend_from_slice(&buf);
        self.bytes.truncate(len);
        self.len += 1;
        self.last = Some(p);
    }

    /// Gives back the room not used (a schedule is kept as long as the page shows it).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
    }

    /// The latest point.
    pub fn last(&self) -> Option<SeriesPoint> {
        self.last
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the points take.
    pub fn encoded_len(&self) -> usize {
        self.bytes.len()
    }

    /// The points in time order.
    pub fn iter(&self) -> Points<'_> {
        Points {
            rest: &self.bytes,
            prev: SeriesPoint::default(),
            left: self.len,
        }
    }
}

/// The points of a [`Series`], decoded one at a time.
#[derive(Debug, Clone)]
pub struct Points<'s> {
    rest: &'s [u8],
    prev: SeriesPoint,
    left: usize,
}

impl Iterator for Points<'_> {
    type Item = SeriesPoint;

    fn next(&mut self) -> Option<SeriesPoint> {
        if self.left == 0 {
            return None;
        }
        let step = take(&mut self.rest);
        let busy = unzigzag(take(&mut self.rest));
        let queued = unzigzag(take(&mut self.rest));
        let p = SeriesPoint {
            time: self.prev.time.wrapping_add(step as Time),
            busy: (i64::from(self.prev.busy) + busy) as u32,
            queued: (i64::from(self.prev.queued) + queued) as u32,
        };
        self.prev = p;
        self.left -= 1;
        Some(p)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Points<'_> {}

/// Writes `v` at `buf[at..]` in LEB128 (seven bits a byte, low bits first, the top bit set on
/// all but the last); returns where it ends.
fn put(buf: &mut [u8; MAX_POINT_BYTES], mut at: usize, mut v: u64) -> usize {
    while v >= 0x80 {
        buf[at] = v as u8 | 0x80;
        v >>= 7;
        at += 1;
    }
    buf[at] = v as u8;
    at + 1
}

/// Reads one [`put`] number off the front of `r`.
fn take(r: &mut &[u8]) -> u64 {
    let (mut v, mut shift) = (0u64, 0);
    loop {
        let (&b, rest) = r
            .split_first()
            .expect("a series reads back its own encoding");
        *r = rest;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

/// A signed change as an unsigned number, small either way (0, -1, 1, -2 ... as 0, 1, 2, 3 ...).
fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

impl<'s> IntoIterator for &'s Series {
    type Item = SeriesPoint;
    type IntoIter = Points<'s>;

    fn into_iter(self) -> Points<'s> {
        self.iter()
    }
}

impl Serialize for Series {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(time: Time, busy: u32, queued: u32) -> SeriesPoint {
        SeriesPoint { time, busy, queued }
    }

    fn series_of(points: &[SeriesPoint]) -> Series {
        let mut s = Series::with_room(0);
        for &p in points {
            s.push(p);
        }
        s
    }

    #[test]
    fn a_point_is_its_steps_in_leb128() {
        // 300 s after 0: 300 = 0b10_0101100, low seven bits first: 0xac 0x02; 5 busy (+5:
        // 10), 2 queued (+2: 4); then 1 s later, 4 fewer busy (-4: 7), the same queue (0).
        let s = series_of(&[point(300, 5, 2), point(301, 1, 2)]);
        assert_eq!(s.bytes, [0xac, 0x02, 0x0a, 0x04, 0x01, 0x07, 0x00]);
        assert_eq!((s.len(), s.encoded_len()), (2, 7));
        assert_eq!(s.last(), Some(point(301, 1, 2)));
    }

    #[test]
    fn every_value_reads_back_exactly() {
        let extremes = [
            point(Time::MIN, u32::MAX, 0),
            point(-1, 0, u32::MAX),
            point(0, u32::MAX, u32::MAX),
            point(Time::MAX, 0, 0),
        ];
        let s = series_of(&extremes);
        assert_eq!(s.iter().collect::<Vec<_>>(), extremes);
        assert!(s.encoded_len() <= extremes.len() * MAX_POINT_BYTES);

        let mut draw = crate::sim::test_numbers(7);
        let mut points = Vec::new();
        let mut t = -1_000_000;
        for _ in 0..20_000 {
            let scale = 10_i64.pow(draw(12) as u32);
            t += draw(5) as Time * scale;
            let bits = draw(33);
            points.push(point(t, draw(1 << bits) as u32, draw(300) as u32));
        }
        let s = series_of(&points);
        assert_eq!(s.iter().len(), points.len());
        assert_eq!(s.iter().collect::<Vec<_>>(), points);
        assert_eq!(s, series_of(&points));
    }

    #[test]
    fn serialises_as_its_list_of_points() {
        let points = [point(-5, 3, 1), point(10, 0, 0)];
        assert_eq!(
            serde_json::to_string(&series_of(&points)).unwrap(),
            serde_json::to_string(&points.to_vec()).unwrap()
        );
        assert_eq!(serde_json::to_string(&Series::default()).unwrap(), "[]");
    }
}
