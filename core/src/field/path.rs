use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// A field path, built on the stack while walking an object: each step borrows its parent, so
/// descending costs no allocation and the text is only rendered when an error is reported.
///
/// Prints as Kubernetes' `(*field.Path).String()`: fields joined by `.`, list indexes and map
/// keys in brackets, and the root (a nil path in Go) as `<nil>`.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    step: Step<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Step<'a> {
    Root,
    /// A name given as one pre-rendered string (e.g. `metadata.name` typed by a user).
    Named(&'a str),
    Child(&'a str),
    Index(usize),
    Key(&'a str),
}

impl<'a> Path<'a> {
    /// The root of an object: prints as `<nil>` until a step is added.
    pub const fn root() -> Path<'static> {
        Path { parent: None, step: Step::Root }
    }

    /// A path given as text, used as is (`metadata.name`). An empty string is the root.
    pub fn named(text: &'a str) -> Path<'a> {
        if text.is_empty() {
            return Path { parent: None, step: Step::Root };
        }
        Path { parent: None, step: Step::Named(text) }
    }

    /// The field `name` under this path (`spec` → `spec.replicas`).
    pub fn child<'b>(&'b self, name: &'b str) -> Path<'b> {
        Path { parent: Some(self), step: Step::Child(name) }
    }

    /// The list item `index` under this path (`items` → `items[3]`).
    pub fn index<'b>(&'b self, index: usize) -> Path<'b> {
        Path { parent: Some(self), step: Step::Index(index) }
    }

    /// The map value under `key` (`labels` → `labels[app]`).
    pub fn key<'b>(&'b self, key: &'b str) -> Path<'b> {
        Path { parent: Some(self), step: Step::Key(key) }
    }

    /// Whether this is the root (nothing added to it).
    pub fn is_root(&self) -> bool {
        self.parent.is_none() && matches!(self.step, Step::Root)
    }

    /// The text Kubernetes prints for this path.
    pub fn render(&self) -> String {
        alloc::format!("{self}")
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            if !matches!(p.step, Step::Root) {
                steps.push(p.step);
            }
            at = p.parent;
        }
        if steps.is_empty() {
            return f.write_str("<nil>");
        }
        for (i, step) in steps.iter().rev().enumerate() {
            match step {
                Step::Root => {}
                Step::Named(text) => f.write_str(text)?,
                Step::Child(name) => {
                    // Go: a dot only between a parent and a non-empty name.
                    if i > 0 && !name.is_empty() {
                        f.write_str(".")?;
                    }
                    f.write_str(name)?;
                }
                Step::Index(n) => write!(f, "[{n}]")?,
                Step::Key(k) => write!(f, "[{k}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expectations from apimachinery pkg/util/validation/field/path_test.go and path.go.
    #[test]
    fn renders_like_go() {
        let root = Path::root();
        assert_eq!(root.render(), "<nil>");
        let spec = root.child("spec");
        assert_eq!(spec.render(), "spec");
        let containers = spec.child("containers");
        let first = containers.index(0);
        assert_eq!(first.child("name").render(), "spec.containers[0].name");
        let labels = root.child("metadata").child("labels").render();
        assert_eq!(labels, "metadata.labels");
        let meta = root.child("metadata");
        let labels = meta.child("labels");
        assert_eq!(labels.key("app.kubernetes.io/name").render(), "metadata.labels[app.kubernetes.io/name]");
        let named = Path::named("metadata.name");
        assert_eq!(named.render(), "metadata.name");
        assert_eq!(named.index(2).render(), "metadata.name[2]");
        assert_eq!(Path::named("").render(), "<nil>");
        assert!(Path::named("").is_root());
    }
}
