//! The one list of the API's routes. Each entry is a handler (its `#[post]`/`#[get]` attribute
//! gives the method and path, its `#[utoipa::path]` the request and the success answer) with
//! every error code it can answer. The server registers the routes from this list, the OpenAPI
//! document takes each operation's error responses from it (its operations from the same
//! handlers, named in `openapi/`; a test checks the two agree), and 404/405 answers use it to tell
//! an unknown path from a wrong method: a route renamed or added here cannot lose its documented
//! errors.

use std::sync::OnceLock;

use actix_web::dev::HttpServiceFactory;
use actix_web::web;
use utoipa::openapi::path::HttpMethod;

use super::problem::ProblemCode::{self, *};
use super::{bots, games, hands, health, rulesets};

/// The errors of every route that reads a JSON body.
const BODY: &[ProblemCode] = &[
    InvalidJson,
    PayloadTooLarge,
    UnsupportedMediaType,
    RequestTimeout,
];

/// The errors of every route whose work runs on an engine thread ([`super::Gate`]).
const ENGINE: &[ProblemCode] = &[ServerBusy];

/// The errors of every route that opens a state a client sends back.
const STATE: &[ProblemCode] = &[
    UnknownRuleset,
    InvalidRuleset,
    InvalidState,
    TamperedState,
    StaleState,
    GuardUnavailable,
    MissingSeatKey,
    ForbiddenSeat,
];

/// Every route, in the order the server tries them: a path without parameters comes before a
/// pattern that also matches it (`/v1/rulesets/check` before `/v1/rulesets/{id}`).
pub fn routes() -> Vec<Route> {
    vec![
        Route::of(games::create)
            .errors(BODY)
            .errors(ENGINE)
            .errors(&[
                InvalidCard,
                InvalidDeck,
                UnknownRuleset,
                UnknownOption,
                IncompatibleOptions,
                InvalidRuleset,
                ScriptError,
                UnknownSeat,
                InvalidTarget,
                UnknownLevel,
                NoHumanSeat,
                BotSeat,
                DeckNotAllowed,
                StateTooLarge,
                Internal,
            ]),
        Route::of(games::step)
            .errors(BODY)
            .errors(ENGINE)
            .errors(STATE)
            .errors(&[
                InvalidCard,
                IllegalAction,
                ScriptError,
                InvalidDeck,
                UnknownSeat,
                StateTooLarge,
                Internal,
            ]),
        Route::of(games::view)
            .errors(BODY)
            .errors(ENGINE)
            .errors(STATE)
            .errors(&[UnknownSeat, Internal]),
        Route::of(bots::suggest)
            .errors(BODY)
            .errors(ENGINE)
            .errors(STATE)
            .errors(&[UnknownSeat, UnknownLevel, NotYourTurn, Internal]),
        Route::of(rulesets::list),
        Route::of(rulesets::check)
            .errors(BODY)
            .errors(ENGINE)
            .errors(&[InvalidRuleset, UnknownOption, IncompatibleOptions, Internal]),
        Route::of(rulesets::get).errors(ENGINE).errors(&[
            UnknownRuleset,
            InvalidRuleset,
            UnknownOption,
            IncompatibleOptions,
            Internal,
        ]),
        Route::of(hands::analyze)
            .errors(BODY)
            .errors(ENGINE)
            .errors(&[
                InvalidCard,
                InvalidHand,
                UnknownRuleset,
                InvalidRuleset,
                UnknownOption,
                IncompatibleOptions,
                Internal,
            ]),
        Route::of(health::healthz),
        Route::of(health::readyz)
            .errors(ENGINE)
            .errors(&[GuardUnavailable]),
        Route::of(health::metrics),
        Route::of(health::openapi_json),
        Route::of(health::docs),
    ]
}

/// One route: where it is, how it is documented, what it can answer, and how it is registered.
pub struct Route {
    /// The path pattern, as actix and OpenAPI write it (`/v1/rulesets/{id}`).
    pub path: String,
    pub method: HttpMethod,
    /// Every problem `type` code the route can answer besides `not-found` and
    /// `method-not-allowed` (which any path can answer).
    pub errors: Vec<ProblemCode>,
    register: Box<dyn FnOnce(&mut web::ServiceConfig)>,
}

impl Route {
    /// The route of a handler that carries both an actix route attribute and `#[utoipa::path]`.
    fn of<H>(handler: H) -> Route
    where
        H: HttpServiceFactory + utoipa::Path + 'static,
    {
        let methods = H::methods();
        let method = match methods.as_slice() {
            [one] => one.clone(),
            _ => HttpMethod::Get,
        };
        Route {
            path: H::path(),
            method,
            errors: Vec::new(),
            register: Box::new(move |cfg| {
                cfg.service(handler);
            }),
        }
    }

    fn errors(mut self, codes: &[ProblemCode]) -> Route {
        for code in codes {
            if !self.errors.contains(code) {
                self.errors.push(*code);
            }
        }
        self
    }

    /// Registers the route's handler.
    pub fn register(self, cfg: &mut web::ServiceConfig) {
        (self.register)(cfg)
    }

    /// The method in upper case, as HTTP writes it.
    pub fn method_name(&self) -> &'static str {
        method_name(&self.method)
    }

    /// The method in lower case, as OpenAPI keys it.
    pub fn method_key(&self) -> &'static str {
        match self.method {
            HttpMethod::Get => "get",
            HttpMethod::Post => "post",
            HttpMethod::Put => "put",
            HttpMethod::Delete => "delete",
            HttpMethod::Options => "options",
            HttpMethod::Head => "head",
            HttpMethod::Patch => "patch",
            HttpMethod::Trace => "trace",
        }
    }
}

fn method_name(method: &HttpMethod) -> &'static str {
    match method {
        HttpMethod::Get => "GET",
        HttpMethod::Post => "POST",
        HttpMethod::Put => "PUT",
        HttpMethod::Delete => "DELETE",
        HttpMethod::Options => "OPTIONS",
        HttpMethod::Head => "HEAD",
        HttpMethod::Patch => "PATCH",
        HttpMethod::Trace => "TRACE",
    }
}

/// Every route's path and method, for telling 404 from 405 on each request.
pub fn table() -> &'static [(String, &'static str)] {
    static TABLE: OnceLock<Vec<(String, &'static str)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        routes()
            .iter()
            .map(|r| (r.path.clone(), r.method_name()))
            .collect()
    })
}
