//! Admission policies (`kubedv_core::policy`) through `PolicySet`; tests of the module's private
//! parts (JSON patch, apply, params, selectors, requests) stay in `core/src/policy/`.

mod policy_set;
