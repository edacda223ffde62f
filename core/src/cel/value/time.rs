//! Timestamps and durations as cel-go has them: RFC 3339 text, Go's duration syntax, calendar
//! fields in a time zone, and the ranges (years 1 to 9999; durations in int64 nanoseconds).

use alloc::format;
use alloc::string::String;

/// Seconds of 0001-01-01T00:00:00Z.
pub const MIN_TS: i64 = -62_135_596_800;
/// Seconds of 9999-12-31T23:59:59Z.
pub const MAX_TS: i64 = 253_402_300_799;

/// A point in time: seconds since the Unix epoch and nanoseconds (0..1e9), with the UTC
/// offset it was written in (Go's `time.Time` keeps it: `string(timestamp(s))` prints it back).
/// Equality and order are by instant.
#[derive(Clone, Copy, Debug)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub secs: i64,
    /// Nanoseconds within the second.
    pub nanos: u32,
    /// The UTC offset, in seconds, for printing.
    pub offset: i32,
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Timestamp) -> bool {
        (self.secs, self.nanos) == (other.secs, other.nanos)
    }
}

impl Eq for Timestamp {}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Timestamp) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Timestamp) -> core::cmp::Ordering {
        (self.secs, self.nanos).cmp(&(other.secs, other.nanos))
    }
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date (year, month 1-12, day 1-31) of a day count since 1970-01-01.
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn digits(s: &[u8], at: usize, n: usize) -> Option<u32> {
    let part = s.get(at..at + n)?;
    let mut v = 0u32;
    for b in part {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(b - b'0');
    }
    Some(v)
}

impl Timestamp {
    /// Parses RFC 3339 (`2009-02-13T23:31:30.5Z`, `...+05:30`) as Go's `time.RFC3339` does.
    pub fn parse(s: &str) -> Option<Timestamp> {
        let b = s.as_bytes();
        let year = digits(b, 0, 4)?;
        let month = digits(b, 5, 2)?;
        let day = digits(b, 8, 2)?;
        let hour = digits(b, 11, 2)?;
        let min = digits(b, 14, 2)?;
        let sec = digits(b, 17, 2)?;
        if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !matches!(b.get(10), Some(b'T' | b't')) {
            return None;
        }
        if b.get(13) != Some(&b':') || b.get(16) != Some(&b':') {
            return None;
        }
        if !(1..=12).contains(&month)
            || day < 1
            || day > days_in_month(year as i64, month)
            || hour > 23
            || min > 59
            || sec > 59
        {
            return None;
        }
        let mut at = 19;
        let mut nanos = 0u32;
        if b.get(at) == Some(&b'.') {
            at += 1;
            let start = at;
            while at < b.len() && b[at].is_ascii_digit() {
                if at - start < 9 {
                    nanos = nanos * 10 + u32::from(b[at] - b'0');
                }
                at += 1;
            }
            if at == start {
                return None;
            }
            for _ in (at - start).min(9)..9 {
                nanos *= 10;
            }
        }
        let offset = match b.get(at) {
            Some(b'Z' | b'z') if at + 1 == b.len() => 0,
            Some(sign @ (b'+' | b'-')) if at + 6 == b.len() && b[at + 3] == b':' => {
                let h = digits(b, at + 1, 2)? as i64;
                let m = digits(b, at + 4, 2)? as i64;
                if h > 23 || m > 59 {
                    return None;
                }
                let o = h * 3600 + m * 60;
                if *sign == b'-' {
                    -o
                } else {
                    o
                }
            }
            _ => return None,
        };
        let days = days_from_civil(year as i64, month, day);
        let secs = days * 86_400 + i64::from(hour) * 3600 + i64::from(min) * 60 + i64::from(sec) - offset;
        Some(Timestamp { secs, nanos, offset: offset as i32 })
    }

    /// A UTC timestamp.
    pub fn utc(secs: i64, nanos: u32) -> Timestamp {
        Timestamp { secs, nanos, offset: 0 }
    }

    /// RFC 3339 in the timestamp's offset with trailing zeros of the fraction removed (Go's
    /// `time.RFC3339Nano`; `Z` for UTC).
    pub fn to_rfc3339(&self) -> String {
        let local = self.secs + i64::from(self.offset);
        let days = local.div_euclid(86_400);
        let rem = local.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        let mut out = format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}", rem / 3600, rem / 60 % 60, rem % 60);
        if self.nanos > 0 {
            let frac = format!("{:09}", self.nanos);
            out.push('.');
            out.push_str(frac.trim_end_matches('0'));
        }
        if self.offset == 0 {
            out.push('Z');
        } else {
            let sign = if self.offset < 0 { '-' } else { '+' };
            let o = self.offset.unsigned_abs();
            out.push_str(&format!("{sign}{:02}:{:02}", o / 3600, o / 60 % 60));
        }
        out
    }

    /// Adds nanoseconds; `None` outside the timestamp range.
    pub fn add_nanos(&self, d: i128) -> Option<Timestamp> {
        let total = i128::from(self.secs) * 1_000_000_000 + i128::from(self.nanos) + d;
        let secs = total.div_euclid(1_000_000_000);
        let nanos = total.rem_euclid(1_000_000_000) as u32;
        let secs = i64::try_from(secs).ok()?;
        (MIN_TS..=MAX_TS).contains(&secs).then_some(Timestamp { secs, nanos, offset: self.offset })
    }

    /// `self - other` in nanoseconds.
    pub fn diff_nanos(&self, other: &Timestamp) -> i128 {
        (i128::from(self.secs) - i128::from(other.secs)) * 1_000_000_000 + i128::from(self.nanos)
            - i128::from(other.nanos)
    }
}

/// Days in a month of the proleptic Gregorian calendar.
pub fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The calendar fields of a timestamp in a zone (month and day 1-based, weekday 0 = Sunday,
/// yearday 0-based).
#[allow(missing_docs)]
pub struct Civil {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
    pub weekday: i64,
    pub yearday: i64,
}

/// Splits a timestamp into calendar fields at a UTC offset (seconds).
pub fn civil(ts: &Timestamp, offset: i64) -> Civil {
    let local = ts.secs + offset;
    let days = local.div_euclid(86_400);
    let rem = local.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        hour: rem / 3600,
        minute: rem / 60 % 60,
        second: rem % 60,
        weekday: (days + 4).rem_euclid(7),
        yearday: days - days_from_civil(year, 1, 1),
    }
}

/// The UTC offset (seconds) of a zone at an instant, as cel-go v0.29.2 reads it for the
/// timestamp functions (common/stdlib/standard.go `inTimeZone`; not common/types/timestamp.go's
/// `timeZone`, which no function calls): without a `:` the name goes to Go's
/// `time.LoadLocation` (`""`, `UTC`, `Local` — the API server runs in UTC — or one of the IANA
/// zones kubedv knows the rules of: without a time-zone database in WebAssembly, kubedv carries
/// the current rules of common zones, see `ZONES`); with one, hours and minutes are
/// `strconv.Atoi`'s (any minutes: `05:75` is 6:15), and a leading `-` subtracts the minutes. The errors
/// are Go's.
pub fn zone_offset(zone: &str, ts: &Timestamp) -> Result<i64, String> {
    let Some((h, m)) = zone.split_once(':') else {
        if matches!(zone, "" | "UTC" | "Local") {
            return Ok(0);
        }
        let (_, std, rule) =
            ZONES.iter().find(|(name, _, _)| *name == zone).ok_or_else(|| format!("unknown time zone {zone}"))?;
        let std = i64::from(*std) * 60;
        return Ok(std + if in_dst(*rule, ts, std) { 3600 } else { 0 });
    };
    let (h, m) = (atoi(h)?, atoi(m)?);
    let minutes =
        if zone.starts_with('-') { h.wrapping_mul(60).wrapping_sub(m) } else { h.wrapping_mul(60).wrapping_add(m) };
    Ok(minutes.wrapping_mul(60))
}

/// Go's `strconv.Atoi` (an optional sign, then decimal digits), with its errors.
fn atoi(s: &str) -> Result<i64, String> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.Atoi: parsing {s:?}: invalid syntax"));
    }
    s.trim_start_matches('+').parse().map_err(|_| format!("strconv.Atoi: parsing {s:?}: value out of range"))
}

#[derive(Clone, Copy)]
enum Dst {
    None,
    /// US and Canada: second Sunday of March 02:00 local to first Sunday of November 02:00.
    Us,
    /// EU: last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC.
    Eu,
    /// Southern Australia/New Zealand style: first Sunday of October 02:00 to first Sunday of April 03:00.
    Au,
}

/// Zone name, standard offset in minutes, daylight-saving rule.
const ZONES: &[(&str, i32, Dst)] = &[
    ("America/New_York", -300, Dst::Us),
    ("America/Chicago", -360, Dst::Us),
    ("America/Denver", -420, Dst::Us),
    ("America/Phoenix", -420, Dst::None),
    ("America/Los_Angeles", -480, Dst::Us),
    ("America/Anchorage", -540, Dst::Us),
    ("US/Eastern", -300, Dst::Us),
    ("US/Central", -360, Dst::Us),
    ("US/Mountain", -420, Dst::Us),
    ("US/Pacific", -480, Dst::Us),
    ("US/Alaska", -540, Dst::Us),
    ("US/Hawaii", -600, Dst::None),
    ("America/Toronto", -300, Dst::Us),
    ("America/Vancouver", -480, Dst::Us),
    ("America/Halifax", -240, Dst::Us),
    ("America/St_Johns", -210, Dst::Us),
    ("America/Sao_Paulo", -180, Dst::None),
    ("America/Mexico_City", -360, Dst::None),
    ("Pacific/Honolulu", -600, Dst::None),
    ("Europe/London", 0, Dst::Eu),
    ("Europe/Dublin", 0, Dst::Eu),
    ("Europe/Lisbon", 0, Dst::Eu),
    ("Europe/Paris", 60, Dst::Eu),
    ("Europe/Berlin", 60, Dst::Eu),
    ("Europe/Madrid", 60, Dst::Eu),
    ("Europe/Rome", 60, Dst::Eu),
    ("Europe/Amsterdam", 60, Dst::Eu),
    ("Europe/Stockholm", 60, Dst::Eu),
    ("Europe/Warsaw", 60, Dst::Eu),
    ("Europe/Athens", 120, Dst::Eu),
    ("Europe/Helsinki", 120, Dst::Eu),
    ("Europe/Kiev", 120, Dst::Eu),
    ("Europe/Kyiv", 120, Dst::Eu),
    ("Europe/Istanbul", 180, Dst::None),
    ("Europe/Moscow", 180, Dst::None),
    ("Africa/Cairo", 120, Dst::None),
    ("Africa/Johannesburg", 120, Dst::None),
    ("Africa/Lagos", 60, Dst::None),
    ("Asia/Dubai", 240, Dst::None),
    ("Asia/Karachi", 300, Dst::None),
    ("Asia/Kolkata", 330, Dst::None),
    ("Asia/Calcutta", 330, Dst::None),
    ("Asia/Kathmandu", 345, Dst::None),
    ("Asia/Dhaka", 360, Dst::None),
    ("Asia/Bangkok", 420, Dst::None),
    ("Asia/Jakarta", 420, Dst::None),
    ("Asia/Shanghai", 480, Dst::None),
    ("Asia/Hong_Kong", 480, Dst::None),
    ("Asia/Singapore", 480, Dst::None),
    ("Asia/Taipei", 480, Dst::None),
    ("Asia/Seoul", 540, Dst::None),
    ("Asia/Tokyo", 540, Dst::None),
    ("Australia/Perth", 480, Dst::None),
    ("Australia/Brisbane", 600, Dst::None),
    ("Australia/Sydney", 600, Dst::Au),
    ("Australia/Melbourne", 600, Dst::Au),
    ("Australia/Adelaide", 570, Dst::Au),
    ("Pacific/Auckland", 720, Dst::None),
    ("Etc/UTC", 0, Dst::None),
    ("GMT", 0, Dst::None),
];

/// The day of month of the n-th (1-based; 0 = last) Sunday of a month.
fn sunday(y: i64, m: u32, n: u32) -> u32 {
    let first = days_from_civil(y, m, 1);
    let weekday = (first + 4).rem_euclid(7) as u32; // 0 = Sunday
    let first_sunday = 1 + (7 - weekday) % 7;
    if n == 0 {
        let mut d = first_sunday;
        while d + 7 <= days_in_month(y, m) {
            d += 7;
        }
        d
    } else {
        first_sunday + 7 * (n - 1)
    }
}

fn in_dst(rule: Dst, ts: &Timestamp, std: i64) -> bool {
    let at = |y: i64, m: u32, d: u32, local_secs: i64| days_from_civil(y, m, d) * 86_400 + local_secs;
    let year = civil(ts, std).year;
    match rule {
        Dst::None => false,
        Dst::Us => {
            let start = at(year, 3, sunday(year, 3, 2), 7200) - std;
            let end = at(year, 11, sunday(year, 11, 1), 7200) - std - 3600;
            ts.secs >= start && ts.secs < end
        }
        Dst::Eu => {
            let start = at(year, 3, sunday(year, 3, 0), 3600);
            let end = at(year, 10, sunday(year, 10, 0), 3600);
            ts.secs >= start && ts.secs < end
        }
        Dst::Au => {
            let end = at(year, 4, sunday(year, 4, 1), 3 * 3600) - std - 3600;
            let start = at(year, 10, sunday(year, 10, 1), 2 * 3600) - std;
            ts.secs < end || ts.secs >= start
        }
    }
}

/// Parses Go's duration syntax (`1h30m`, `-1.5s`, `300ms`, `2us`, `1µs`, `0`) into nanoseconds.
pub fn parse_duration(s: &str) -> Option<i64> {
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: i128 = 0;
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let int_part = &rest[..int_len];
        rest = &rest[int_len..];
        let mut frac_part = "";
        if let Some(r) = rest.strip_prefix('.') {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            frac_part = &r[..n];
            rest = &r[n..];
        }
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        let unit_len = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let unit: i128 = match &rest[..unit_len] {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        rest = &rest[unit_len..];
        let whole: i128 = if int_part.is_empty() { 0 } else { int_part.parse().ok()? };
        total = total.checked_add(whole.checked_mul(unit)?)?;
        let mut scale = unit;
        for b in frac_part.bytes() {
            scale /= 10;
            total += i128::from(b - b'0') * scale;
        }
        if total > i128::from(i64::MAX) + 1 {
            return None;
        }
    }
    let v = if neg { -total } else { total };
    i64::try_from(v).ok()
}

/// A duration as cel-go's `string(duration)` prints it: seconds with the shortest exact
/// fraction and an `s` (`90s`, `1.5s`).
pub fn duration_to_string(d: i64) -> String {
    let neg = d < 0;
    let abs = (d as i128).unsigned_abs();
    let secs = abs / 1_000_000_000;
    let nanos = abs % 1_000_000_000;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(&format!("{secs}"));
    if nanos > 0 {
        let frac = format!("{nanos:09}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out.push('s');
    out
}

/// A duration as Go's `time.Duration.String` prints it (`1h0m0s`, `1.5s`, `300ms`).
pub fn duration_to_go(d: i64) -> String {
    if d == 0 {
        return String::from("0s");
    }
    let neg = d < 0;
    let abs = (d as i128).unsigned_abs();
    let sign = if neg { "-" } else { "" };
    if abs < 1_000_000_000 {
        let (unit, div) = if abs < 1_000 {
            ("ns", 1)
        } else if abs < 1_000_000 {
            ("µs", 1_000)
        } else {
            ("ms", 1_000_000)
        };
        return format!("{sign}{}{unit}", fraction(abs, div));
    }
    let h = abs / 3_600_000_000_000;
    let m = abs / 60_000_000_000 % 60;
    let s = fraction(abs % 60_000_000_000, 1_000_000_000);
    if h > 0 {
        format!("{sign}{h}h{m}m{s}s")
    } else if m > 0 {
        format!("{sign}{m}m{s}s")
    } else {
        format!("{sign}{s}s")
    }
}

fn fraction(v: u128, div: u128) -> String {
    let whole = v / div;
    let rem = v % div;
    if rem == 0 {
        return format!("{whole}");
    }
    let width = match div {
        1_000 => 3,
        1_000_000 => 6,
        _ => 9,
    };
    let frac = format!("{rem:0width$}");
    format!("{whole}.{}", frac.trim_end_matches('0'))
}
