//! The REST routing table, read from the `google.api.http` annotations in the contracts' descriptors:
//! no route is written by hand. Templates support literal segments and `{field}` variables.

use http::Method;
use prost_reflect::{DescriptorPool, FieldDescriptor, MessageDescriptor, MethodDescriptor, Value};

/// One segment of a path template.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Literal(String),
    /// A variable bound to a (possibly nested, dotted) request field.
    Variable(String),
}

/// Where the request body goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyRule {
    /// No body; every unbound field comes from the query string.
    None,
    /// The whole request message (`body: "*"`).
    Whole,
    /// One field of it (`body: "field"`).
    Field(String),
}

/// A REST binding of one RPC.
#[derive(Clone, Debug)]
pub struct Route {
    pub method: Method,
    segments: Vec<Segment>,
    pub body: BodyRule,
    /// Only this field of the response becomes `data` (`response_body`).
    pub response_body: Option<FieldDescriptor>,
    /// `/socio.v1.BillingService/ListPlans`
    pub grpc_path: String,
    pub input: MessageDescriptor,
    pub output: MessageDescriptor,
}

/// What a request's method and path resolve to.
pub enum Resolution<'a> {
    Found(&'a Route, Vec<(String, String)>),
    /// The path exists with other methods.
    MethodNotAllowed,
    NotFound,
}

#[derive(Clone, Debug, Default)]
pub struct RouteTable {
    routes: Vec<Route>,
}

impl RouteTable {
    /// Every annotated unary RPC of the pool's services in `package`.
    pub fn from_pool(pool: &DescriptorPool, package: &str) -> anyhow::Result<Self> {
        let http = pool
            .get_extension_by_name("google.api.http")
            .ok_or_else(|| anyhow::anyhow!("google.api.http is not in the descriptor set"))?;
        let mut routes = Vec::new();
        for service in pool.services().filter(|s| s.package_name() == package) {
            for method in service.methods() {
                let options = method.options();
                if !options.has_extension(&http)
                    || method.is_client_streaming()
                    || method.is_server_streaming()
                {
                    continue;
                }
                if let Value::Message(rule) = options.get_extension(&http).as_ref() {
                    routes.push(route(&method, rule)?);
                }
            }
        }
        // Literal segments beat variables: `/api/x/export` before `/api/x/{id}`.
        routes.sort_by_key(|r| r.segments.iter().filter(|s| matches!(s, Segment::Variable(_))).count());
        Ok(Self { routes })
    }

    pub fn routes(&self) -> &[Route] {
        &self.routes
    }

    pub fn resolve(&self, method: &Method, path: &str) -> Resolution<'_> {
        let parts: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
        let mut path_exists = false;
        for route in &self.routes {
            let Some(vars) = route.bind(&parts) else { continue };
            if route.method == *method {
                return Resolution::Found(route, vars);
            }
            path_exists = true;
        }
        if path_exists { Resolution::MethodNotAllowed } else { Resolution::NotFound }
    }
}

impl Route {
    fn bind(&self, parts: &[&str]) -> Option<Vec<(String, String)>> {
        if parts.len() != self.segments.len() {
            return None;
        }
        let mut vars = Vec::new();
        for (segment, part) in self.segments.iter().zip(parts) {
            match segment {
                Segment::Literal(lit) if lit == part => {}
                Segment::Literal(_) => return None,
                Segment::Variable(_) if part.is_empty() => return None,
                Segment::Variable(field) => {
                    let value = percent_encoding::percent_decode_str(part).decode_utf8().ok()?;
                    vars.push((field.clone(), value.into_owned()));
                }
            }
        }
        Some(vars)
    }

    /// The request fields bound by the path, in order.
    pub fn variables(&self) -> Vec<String> {
        self.segments
            .iter()
            .filter_map(|s| match s {
                Segment::Variable(v) => Some(v.clone()),
                Segment::Literal(_) => None,
            })
            .collect()
    }

    /// The template as written in the annotation, e.g. `/api/admin/users/{id}`.
    pub fn template(&self) -> String {
        self.segments
            .iter()
            .map(|s| match s {
                Segment::Literal(l) => format!("/{l}"),
                Segment::Variable(v) => format!("/{{{v}}}"),
            })
            .collect()
    }
}

fn route(method: &MethodDescriptor, rule: &prost_reflect::DynamicMessage) -> anyhow::Result<Route> {
    let text = |name: &str| match rule.get_field_by_name(name).as_deref() {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let (http_method, template) = [
        ("get", Method::GET),
        ("post", Method::POST),
        ("put", Method::PUT),
        ("patch", Method::PATCH),
        ("delete", Method::DELETE),
    ]
    .into_iter()
    .find_map(|(name, m)| rule.has_field_by_name(name).then(|| (m, text(name))))
    .ok_or_else(|| anyhow::anyhow!("{}: unsupported google.api.http pattern", method.full_name()))?;

    let segments = template
        .trim_start_matches('/')
        .split('/')
        .map(|part| match part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
            Some(var) => Segment::Variable(var.split('=').next().unwrap_or(var).to_owned()),
            None => Segment::Literal(part.to_owned()),
        })
        .collect();
    let body = match text("body").as_str() {
        "" => BodyRule::None,
        "*" => BodyRule::Whole,
        field => BodyRule::Field(field.to_owned()),
    };
    let output = method.output();
    let response_body = match text("response_body").as_str() {
        "" => None,
        field => Some(output.get_field_by_name(field).ok_or_else(|| {
            anyhow::anyhow!("{}: response_body {field} is not a field", method.full_name())
        })?),
    };
    Ok(Route {
        method: http_method,
        segments,
        body,
        response_body,
        grpc_path: format!("/{}/{}", method.parent_service().full_name(), method.name()),
        input: method.input(),
        output,
    })
}
