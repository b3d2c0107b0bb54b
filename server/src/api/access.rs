//! Who may call each RPC, and which calls spend the caller's write budget, as the contracts say
//! beside each method (`proto/socio/v1/options.proto`: `(socio.v1.access)`,
//! `(socio.v1.service_access)`, `(socio.v1.spends_write_budget)`), read once from the descriptors.
//! A method that says nothing needs a logged-in caller, so a method added later is protected
//! without anyone remembering to. The edge (`edge.rs`) applies the rule to every call, over every
//! protocol.

use std::{
    collections::{HashMap, HashSet},
    sync::OnceLock,
};

use prost_reflect::{DescriptorPool, Value};

use crate::proto::{descriptor_pool, socio::v1 as pb};

/// Who may call a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone; no token is read.
    Public,
    /// Anyone; the caller is known when a valid token comes with the call.
    Optional,
    /// A logged-in caller.
    Caller,
    /// A logged-in admin.
    Admin,
}

/// Services that are not ours, which anyone may call: health and reflection.
const OTHERS_PUBLIC: &[&str] = &[
    "/grpc.health.v1.Health/",
    "/grpc.reflection.v1.ServerReflection/",
    "/grpc.reflection.v1alpha.ServerReflection/",
];

/// Every method's rule, as the contracts annotate it: `(socio.v1.access)` on a method,
/// `(socio.v1.service_access)` on its service, `(socio.v1.spends_write_budget)` on a write.
struct Rules {
    access: HashMap<String, Access>,
    writes: HashSet<String>,
}

impl Rules {
    fn read(pool: &DescriptorPool) -> Self {
        let extension = |name: &str| {
            pool.get_extension_by_name(name).unwrap_or_else(|| panic!("{name} is in the descriptor set"))
        };
        let (method_access, service_access, spends) = (
            extension("socio.v1.access"),
            extension("socio.v1.service_access"),
            extension("socio.v1.spends_write_budget"),
        );
        let rule = |options: &prost_reflect::DynamicMessage, extension| match options
            .get_extension(extension)
            .as_ref()
        {
            Value::EnumNumber(n) => pb::Access::try_from(*n).ok().filter(|a| *a != pb::Access::Unspecified),
            _ => None,
        };
        let (mut access, mut writes) = (HashMap::new(), HashSet::new());
        for service in pool.services().filter(|s| s.package_name() == "socio.v1") {
            let whole = rule(&service.options(), &service_access);
            for method in service.methods() {
                let path = format!("/{}/{}", service.full_name(), method.name());
                let options = method.options();
                let annotated = rule(&options, &method_access).or(whole);
                access.insert(
                    path.clone(),
                    match annotated {
                        Some(pb::Access::Public) => Access::Public,
                        Some(pb::Access::Optional) => Access::Optional,
                        Some(pb::Access::Admin) => Access::Admin,
                        Some(pb::Access::Unspecified) | None => Access::Caller,
                    },
                );
                if options.get_extension(&spends).as_bool() == Some(true) {
                    writes.insert(path);
                }
            }
        }
        Self { access, writes }
    }
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| Rules::read(descriptor_pool()))
}

/// Whether a call to `path` spends the caller's write budget (`db::rate_limit::WriteBudget`: 180
/// a minute, 2,400 an hour), as its method's `(socio.v1.spends_write_budget)` says.
pub fn writes(path: &str) -> bool {
    rules().writes.contains(path)
}

/// The access rule of a gRPC path (`/package.Service/Method`), as the contracts annotate it: a
/// logged-in caller unless they say otherwise, and for any path they do not name.
pub fn access(path: &str) -> Access {
    if OTHERS_PUBLIC.iter().any(|service| path.starts_with(service)) {
        return Access::Public;
    }
    rules().access.get(path).copied().unwrap_or(Access::Caller)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_is_protected_unless_its_contract_says_otherwise() {
        assert_eq!(access("/socio.v1.AuthService/SendCode"), Access::Public);
        assert_eq!(access("/socio.v1.LandingService/TrackEvent"), Access::Public, "the service's rule");
        assert_eq!(access("/socio.v1.AuthService/Logout"), Access::Optional);
        assert_eq!(access("/socio.v1.BillingService/CreateCheckout"), Access::Optional);
        assert_eq!(access("/socio.v1.AuthService/GetMe"), Access::Caller);
        assert_eq!(access("/socio.v1.AdminService/ListUsers"), Access::Admin);
        assert_eq!(access("/socio.v1.HandoffService/ListHandoffs"), Access::Admin);
        assert_eq!(access("/socio.v1.AuthService/SendCodeTwice"), Access::Caller, "names match whole");
        assert_eq!(access("/socio.v1.NewService/Anything"), Access::Caller);
        assert_eq!(access("/grpc.health.v1.Health/Check"), Access::Public);
    }

    #[test]
    fn exactly_the_public_methods_the_login_checkout_and_landing_need_are_public() {
        let mut public: Vec<&str> = rules()
            .access
            .iter()
            .filter(|(_, a)| **a == Access::Public)
            .map(|(path, _)| path.as_str())
            .filter(|path| !path.starts_with("/socio.v1.LandingService/"))
            .collect();
        public.sort_unstable();
        assert_eq!(
            public,
            [
                "/socio.v1.AuthService/GetWhatsAppLogin",
                "/socio.v1.AuthService/Refresh",
                "/socio.v1.AuthService/SendCode",
                "/socio.v1.AuthService/StartWhatsAppLogin",
                "/socio.v1.AuthService/VerifyCode",
                "/socio.v1.BillingService/CompleteSandboxCheckout",
                "/socio.v1.BillingService/GetCheckoutResult",
                "/socio.v1.BillingService/GetSandboxCheckout",
                "/socio.v1.BillingService/ListPlans",
            ]
        );
    }

    #[test]
    fn every_write_a_person_makes_spends_their_budget_and_no_admin_call_does() {
        for write in ["UpdateIdea", "UpdateLegal", "AutoSave", "BatchUpdates"] {
            assert!(writes(&format!("/socio.v1.BusinessPlanService/{write}")), "{write}");
        }
        assert!(writes("/socio.v1.DashboardService/UpdateDashboardStep"));
        assert!(writes("/socio.v1.ResultsService/RecordMonthResults"));
        assert!(writes("/socio.v1.ConsultantService/Chat"));
        assert!(!writes("/socio.v1.BusinessPlanService/GetBusinessPlan"), "reads are free");
        assert_eq!(rules().writes.len(), 23);
        for write in &rules().writes {
            assert_eq!(access(write), Access::Caller, "{write} is a logged-in person's own write");
        }
    }
}
