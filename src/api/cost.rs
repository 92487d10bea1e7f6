//! Which requests are played on the worker that read them and which on an engine thread.
//!
//! Handing work to an engine thread and its answer back costs two thread switches and, at
//! saturation, the engine threads' lower priority: more than a whole step of a built-in ruleset
//! without hooks. So a request whose work is cheap by construction is played where it was read;
//! what can cost milliseconds (authored rulesets and hooks, `strong` bots, long logs played again)
//! still goes to the engine threads, so that the workers answering `/healthz` never wait on it.
//! Work on an engine thread runs within the request's script budget; work on the worker runs no
//! script, and needs none.

use crate::level::Level;

use super::open::{Opened, Read, StateInput};
use super::{ApiError, AppState};

/// The largest state (its JSON text as sent) read and played on the worker. A plain state's
/// log is played again to check it, about 0.1 µs an action; 16 KiB hold some 1 200 actions.
pub const INLINE_STATE_BYTES: usize = 16 * 1024;

/// Where a request's state is opened and played.
pub enum Triage {
    /// Cheap: opened (or refused) on the worker, to be played there.
    Here(Result<Opened, ApiError>),
    /// Possibly costly: for an engine thread to open (as far as it is not yet) and play.
    Pool(Unopened),
}

/// A state left for an engine thread, as far as the worker got with it.
pub enum Unopened {
    /// Too long to read on the worker.
    Raw(StateInput),
    /// Read, its ruleset authored (resolving it may compile scripts).
    Read(Read),
    /// Opened, but costly to play (hooks, `strong` bots).
    Opened(Opened),
}

impl Unopened {
    /// The state opened, on the engine thread.
    pub fn open(self, app: &AppState) -> Result<Opened, ApiError> {
        match self {
            Unopened::Raw(raw) => app.open_state(&raw),
            Unopened::Read(read) => read.resolve(app),
            Unopened::Opened(opened) => Ok(opened),
        }
    }
}

/// Where the state `raw` is to be opened and played, reading it on the worker when short: a
/// built-in ruleset (or one of the server's directories) without hooks and no `strong` bot is
/// played here; anything else, or anything longer than [`INLINE_STATE_BYTES`], on an engine
/// thread.
pub fn triage(app: &AppState, raw: StateInput) -> Triage {
    if raw.0.get().len() > INLINE_STATE_BYTES {
        return Triage::Pool(Unopened::Raw(raw));
    }
    let read = match app.read_state(&raw) {
        Ok(read) => read,
        Err(e) => return Triage::Here(Err(e)),
    };
    if read.state.ruleset.authored.is_some() {
        return Triage::Pool(Unopened::Read(read));
    }
    let strong_bots = read.state.bots.values().any(|&l| l == Level::Strong);
    let opened = match read.resolve(app) {
        Ok(opened) => opened,
        Err(e) => return Triage::Here(Err(e)),
    };
    if strong_bots || !opened.variant.hook_points.is_empty() {
        return Triage::Pool(Unopened::Opened(opened));
    }
    Triage::Here(Ok(opened))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::api::games::{NewGameRequest, deal};
    use crate::engine::GameId;

    /// The `state` of a deal, as the next request sends it back.
    fn dealt(app: &AppState, request: Value) -> StateInput {
        let request: NewGameRequest = serde_json::from_value(request).expect("a deal request");
        let answer = deal(app, request, GameId([7; 16])).expect("a deal");
        let snapshot: Value = serde_json::from_slice(&answer).expect("a snapshot");
        state(&snapshot["state"].to_string())
    }

    fn state(text: &str) -> StateInput {
        StateInput(serde_json::value::RawValue::from_string(text.into()).expect("JSON"))
    }

    fn place(triage: &Triage) -> &'static str {
        match triage {
            Triage::Here(Ok(_)) => "here",
            Triage::Here(Err(_)) => "refused here",
            Triage::Pool(Unopened::Raw(_)) => "pool, unread",
            Triage::Pool(Unopened::Read(_)) => "pool, read",
            Triage::Pool(Unopened::Opened(_)) => "pool, opened",
        }
    }

    #[test]
    fn only_states_cheap_to_play_stay_on_the_worker() {
        let app = AppState::builtin();
        let authored = json!({
            "yaml": "id: plain-authored\nname: Plain\nsummary: Nothing new.\nextends: standard\n"
        });
        let cases = [
            (json!({"seed": 1}), "here"),
            (json!({"seed": 1, "bots": {"1": "basic"}}), "here"),
            (json!({"seed": 1, "bots": {"1": "random"}}), "here"),
            (json!({"seed": 1, "bots": {"1": "strong"}}), "pool, opened"),
            (json!({"seed": 1, "options": ["hollywood"]}), "pool, opened"),
            (json!({"seed": 1, "ruleset": authored}), "pool, read"),
        ];
        for (request, want) in cases {
            let triage = triage(&app, dealt(&app, request.clone()));
            assert_eq!(place(&triage), want, "{request}");
        }
        let long = format!(r#"{{"pad": "{}"}}"#, "x".repeat(INLINE_STATE_BYTES));
        assert_eq!(place(&triage(&app, state(&long))), "pool, unread");
        let short = r#"{"pad": "x"}"#;
        assert_eq!(place(&triage(&app, state(short))), "refused here");
    }

    #[test]
    fn what_the_worker_read_opens_on_an_engine_thread_as_it_would_have_there() {
        let app = AppState::builtin();
        let raw = dealt(&app, json!({"seed": 2, "bots": {"1": "strong"}}));
        let direct = app
            .open_state(&raw)
            .expect("opens")
            .play(|_, game| Ok(game.game))
            .expect("checks");
        for unopened in [
            Unopened::Raw(state(raw.0.get())),
            Unopened::Read(app.read_state(&raw).expect("reads")),
        ] {
            let opened = unopened.open(&app).expect("opens");
            let game = opened.play(|_, game| Ok(game.game)).expect("checks");
            assert_eq!(game, direct);
        }
    }
}
