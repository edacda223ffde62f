use alloc::string::String;
use alloc::vec::Vec;

/// `content.IsPathSegmentName`: the name can be used as one URL or file path segment. For
/// historical reasons Kubernetes checks neither emptiness nor length here.
pub fn is_path_segment_name(name: &str) -> Vec<String> {
    for illegal in [".", ".."] {
        if name == illegal {
            return alloc::vec![alloc::format!("may not be '{illegal}'")];
        }
    }
    ["/", "%"]
        .iter()
        .filter(|illegal| name.contains(**illegal))
        .map(|illegal| alloc::format!("may not contain '{illegal}'"))
        .collect()
}
