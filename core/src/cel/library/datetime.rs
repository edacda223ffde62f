//! The timestamp and duration accessors (`getFullYear`, `getHours`, ..., with an optional time
//! zone for timestamps).

use alloc::vec::Vec;

use super::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{no_overload, time, Fail, Value};

/// The accessors, as methods of a timestamp (with an optional time zone) or a duration.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    match b {
        B::GetFullYear
        | B::GetMonth
        | B::GetDate
        | B::GetDayOfMonth
        | B::GetDayOfWeek
        | B::GetDayOfYear
        | B::GetHours
        | B::GetMinutes
        | B::GetSeconds
        | B::GetMilliseconds
            if c.method && c.arity() <= 2 =>
        {
            Some(time_accessor(b, c.name, c.a0, c.rest.first()))
        }
        _ => None,
    }
}

/// Timestamp and duration accessors, with an optional time zone for timestamps.
pub fn time_accessor(f: Builtin, name: &str, target: &Value, zone: Option<&Value>) -> Result<Value, Fail> {
    match target {
        Value::Timestamp(ts) => {
            let offset = match zone {
                None => 0,
                Some(Value::String(z)) => time::zone_offset(z, ts)?,
                Some(other) => return Err(no_overload(name, &[target, other])),
            };
            let c = time::civil(ts, offset);
            Ok(Value::Int(match f {
                Builtin::GetFullYear => c.year,
                Builtin::GetMonth => i64::from(c.month) - 1,
                Builtin::GetDate => i64::from(c.day),
                Builtin::GetDayOfMonth => i64::from(c.day) - 1,
                Builtin::GetDayOfWeek => c.weekday,
                Builtin::GetDayOfYear => c.yearday,
                Builtin::GetHours => c.hour,
                Builtin::GetMinutes => c.minute,
                Builtin::GetSeconds => c.second,
                _ => i64::from(ts.nanos / 1_000_000),
            }))
        }
        Value::Duration(d) if zone.is_none() => Ok(Value::Int(match f {
            Builtin::GetHours => d / 3_600_000_000_000,
            Builtin::GetMinutes => d / 60_000_000_000,
            Builtin::GetSeconds => d / 1_000_000_000,
            Builtin::GetMilliseconds => d / 1_000_000,
            _ => return Err(no_overload(name, &[target])),
        })),
        _ => Err(no_overload(name, &[target].into_iter().chain(zone).collect::<Vec<_>>())),
    }
}
