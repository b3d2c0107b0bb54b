//! Who may call each RPC: the one list of the methods anyone may call, those that read a token
//! only when one comes, and the admins' services. Every method not listed needs a logged-in
//! caller, so a method added later is protected without anyone remembering to. The edge
//! (`edge.rs`) applies the rule to every call, over every protocol.

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

/// Methods (or, ending in `/`, whole services) anyone may call: logging in, the plans on offer,
/// the sandbox payment page, the landing page's calls, health and reflection.
pub const PUBLIC: &[&str] = &[
    "/socio.v1.AuthService/SendCode",
    "/socio.v1.AuthService/VerifyCode",
    "/socio.v1.AuthService/Refresh",
    "/socio.v1.AuthService/StartWhatsAppLogin",
    "/socio.v1.AuthService/GetWhatsAppLogin",
    "/socio.v1.BillingService/ListPlans",
    "/socio.v1.BillingService/GetCheckoutResult",
    "/socio.v1.BillingService/GetSandboxCheckout",
    "/socio.v1.BillingService/CompleteSandboxCheckout",
    "/socio.v1.LandingService/",
    "/grpc.health.v1.Health/",
    "/grpc.reflection.v1.ServerReflection/",
    "/grpc.reflection.v1alpha.ServerReflection/",
];

/// Methods anyone may call that act for the caller when a valid token comes with them: logging
/// out (a refresh token alone ends its session) and checking out for a number.
pub const OPTIONAL: &[&str] = &["/socio.v1.AuthService/Logout", "/socio.v1.BillingService/CreateCheckout"];

/// Services only admins may call.
pub const ADMIN: &[&str] =
    &["/socio.v1.AdminService/", "/socio.v1.SystemPromptService/", "/socio.v1.HandoffService/"];

/// Methods that write the caller's own data, each counted against their write budget
/// (`db::rate_limit::WriteBudget`: 180 a minute, 2,400 an hour) at the edge, over every protocol.
/// The admins' services are not listed (their writes are audited); neither are logging in and out,
/// which have limits of their own.
pub const WRITES: &[&str] = &[
    "/socio.v1.BusinessPlanService/CreateBusinessPlan",
    "/socio.v1.BusinessPlanService/UpdateIdea",
    "/socio.v1.BusinessPlanService/UpdateMarket",
    "/socio.v1.BusinessPlanService/UpdateFinance",
    "/socio.v1.BusinessPlanService/UpdateMarketing",
    "/socio.v1.BusinessPlanService/UpdateHr",
    "/socio.v1.BusinessPlanService/UpdateLegal",
    "/socio.v1.BusinessPlanService/GenerateBusinessPlan",
    "/socio.v1.BusinessPlanService/DeleteBusinessPlan",
    "/socio.v1.BusinessPlanService/SyncUpdate",
    "/socio.v1.BusinessPlanService/SyncProgress",
    "/socio.v1.BusinessPlanService/AutoSave",
    "/socio.v1.BusinessPlanService/BatchUpdates",
    "/socio.v1.DashboardService/UpdateDashboardStep",
    "/socio.v1.DashboardService/RequestConsultationCall",
    "/socio.v1.ResultsService/RecordMonthResults",
    "/socio.v1.ResultsService/UpdateReminders",
    "/socio.v1.ConsultantService/Chat",
    "/socio.v1.BillingService/CancelSubscription",
    "/socio.v1.BillingService/UpgradeSubscription",
    "/socio.v1.BillingService/SetRefundPixKey",
    "/socio.v1.AccountService/ExportMyData",
    "/socio.v1.AccountService/DeleteMyAccount",
];

/// Whether a call to `path` spends the caller's write budget.
pub fn writes(path: &str) -> bool {
    WRITES.contains(&path)
}

/// The access rule of a gRPC path (`/package.Service/Method`): a logged-in caller unless listed.
pub fn access(path: &str) -> Access {
    let listed = |list: &[&str]| {
        list.iter().any(|entry| if entry.ends_with('/') { path.starts_with(entry) } else { path == *entry })
    };
    if listed(PUBLIC) {
        Access::Public
    } else if listed(OPTIONAL) {
        Access::Optional
    } else if listed(ADMIN) {
        Access::Admin
    } else {
        Access::Caller
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::descriptor_pool;

    #[test]
    fn a_method_is_protected_unless_listed() {
        assert_eq!(access("/socio.v1.AuthService/SendCode"), Access::Public);
        assert_eq!(access("/socio.v1.LandingService/TrackEvent"), Access::Public);
        assert_eq!(access("/socio.v1.AuthService/Logout"), Access::Optional);
        assert_eq!(access("/socio.v1.AuthService/GetMe"), Access::Caller);
        assert_eq!(access("/socio.v1.AdminService/ListUsers"), Access::Admin);
        assert_eq!(access("/socio.v1.AuthService/SendCodeTwice"), Access::Caller, "names match whole");
        assert_eq!(access("/socio.v1.NewService/Anything"), Access::Caller);
    }

    #[test]
    fn every_write_a_person_makes_spends_their_budget_and_no_admin_call_does() {
        for write in ["UpdateIdea", "UpdateLegal", "AutoSave", "BatchUpdates"] {
            assert!(writes(&format!("/socio.v1.BusinessPlanService/{write}")), "{write}");
        }
        assert!(writes("/socio.v1.DashboardService/UpdateDashboardStep"));
        assert!(writes("/socio.v1.ResultsService/RecordMonthResults"));
        assert!(!writes("/socio.v1.BusinessPlanService/GetBusinessPlan"), "reads are free");
        for write in WRITES {
            assert_eq!(access(write), Access::Caller, "{write} is a logged-in person's own write");
        }
    }

    #[test]
    fn every_listed_name_is_a_method_or_service_of_the_contracts() {
        let pool = descriptor_pool();
        let known = |entry: &str| {
            let name = entry.trim_start_matches('/');
            match name.split_once('/') {
                Some((service, "")) => {
                    service.starts_with("grpc.") || pool.get_service_by_name(service).is_some()
                }
                Some((service, method)) => {
                    pool.get_service_by_name(service).is_some_and(|s| s.methods().any(|m| m.name() == method))
                }
                None => false,
            }
        };
        for entry in PUBLIC.iter().chain(OPTIONAL).chain(ADMIN).chain(WRITES) {
            assert!(known(entry), "{entry} names nothing in the contracts");
        }
    }
}
