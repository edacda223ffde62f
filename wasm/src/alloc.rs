//! The global allocator in WebAssembly: rlsf's TLSF (constant-time, about 1.5 KB of code where
//! dlmalloc takes 7 KB) behind a cache of freed small blocks by size class.
//!
//! The engines allocate and free many small blocks per call: a map and its entries per object
//! read, a value per field, an `Rc` per string. TLSF finds and splits a free block, and merges
//! it back when freed, on every one of them; the profile of `program.test({self})` had a tenth
//! of its time there. A freed block of at most 128 bytes is kept on its class's list instead
//! (16-byte classes, at most [`KEEP`] blocks each, so at most 1 MiB is held back from TLSF)
//! and the next allocation of its class takes it in a few instructions.
//!
//! WebAssembly without the `atomics` feature runs one thread, which is what makes the lists
//! safe to share (as it makes `rlsf::SmallGlobalTlsf` safe).

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ptr;

/// The size (and alignment) step of the classes.
const STEP: usize = 16;
/// The classes: blocks of 16, 32, ..., 128 bytes.
const CLASSES: usize = 8;
/// The most freed blocks a class keeps; more go back to TLSF.
const KEEP: u32 = 1024;

/// A freed block on its class's list.
struct Free {
    next: *mut Free,
}

/// TLSF with the small-block cache.
pub struct Allocator {
    tlsf: rlsf::SmallGlobalTlsf,
    /// Each class's freed blocks, and how many.
    lists: UnsafeCell<[(*mut Free, u32); CLASSES]>,
}

// SAFETY: one thread (wasm32 without `atomics`, see `lib.rs`), as rlsf's own global allocator.
unsafe impl Sync for Allocator {}

impl Allocator {
    pub const fn new() -> Allocator {
        Allocator { tlsf: rlsf::SmallGlobalTlsf::new(), lists: UnsafeCell::new([(ptr::null_mut(), 0); CLASSES]) }
    }
}

/// The class of a layout, and the layout every block of that class has. Inlined into the
/// allocator's entry points (the module is built for size, which would leave it a call).
#[inline(always)]
fn class(layout: Layout) -> Option<(usize, Layout)> {
    if layout.size() == 0 || layout.size() > STEP * CLASSES || layout.align() > STEP {
        return None;
    }
    let class = (layout.size() - 1) / STEP;
    // SAFETY: a non-zero multiple of 16 no larger than 128, with the power-of-two alignment
    // 16, is a valid layout.
    Some((class, unsafe { Layout::from_size_align_unchecked((class + 1) * STEP, STEP) }))
}

unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some((class, block)) = class(layout) else {
            return unsafe { self.tlsf.alloc(layout) };
        };
        // SAFETY: one thread, and no reference into the lists outlives this call.
        let (head, count) = unsafe { &mut (*self.lists.get())[class] };
        if head.is_null() {
            return unsafe { self.tlsf.alloc(block) };
        }
        let taken = *head;
        // SAFETY: a block on the list was freed to it, and holds its successor.
        *head = unsafe { (*taken).next };
        *count -= 1;
        taken.cast()
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some((class, block)) = class(layout) else {
            return unsafe { self.tlsf.dealloc(ptr, layout) };
        };
        // SAFETY: as in `alloc`.
        let (head, count) = unsafe { &mut (*self.lists.get())[class] };
        if *count >= KEEP {
            return unsafe { self.tlsf.dealloc(ptr, block) };
        }
        let freed = ptr.cast::<Free>();
        // SAFETY: the block is at least 16 bytes, 16-aligned, and no longer the caller's.
        unsafe { freed.write(Free { next: *head }) };
        *head = freed;
        *count += 1;
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's guarantees, passed on.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (class(layout), class(new)) {
            // Large to large: TLSF grows or shrinks in place where it can.
            (None, None) => unsafe { self.tlsf.realloc(ptr, layout, new_size) },
            // Within one class the block already fits.
            (Some((a, _)), Some((b, _))) if a == b => ptr,
            _ => {
                let moved = unsafe { self.alloc(new) };
                if !moved.is_null() {
                    // SAFETY: both blocks hold at least the smaller size, and are distinct.
                    unsafe {
                        ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                }
                moved
            }
        }
    }
}
