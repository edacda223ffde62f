//! CEL (`kubedv_core::cel`): the language, its Kubernetes environment and libraries, costs.

mod cost;
mod cost_estimation;
mod crd_cost;
mod environment;
mod escaping;
mod estimate;
mod format_check;
mod kubernetes_env;
mod library;
mod limits;
mod lists;
mod parse_errors;
mod schema_values;
