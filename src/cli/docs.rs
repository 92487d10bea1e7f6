//! `gin-rules docs rules|hooks`: the generated pages of `docs/`, written from the code and the
//! rulesets themselves so they cannot drift (a test compares the committed files with these).

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::rules::{Catalog, Variant, rules_table};
use crate::ruleset::RulesetRef;

use super::markdown::{anchor, cell};

#[derive(Args, Clone, Debug)]
pub struct DocsArgs {
    /// Which page.
    pub page: Page,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Page {
    /// The rules of every built-in ruleset and option (docs/rules.md).
    Rules,
    /// The context of every hook point, its decision and what the engine checks (docs/hooks.md).
    Hooks,
    /// The table of problem codes: when each is answered, with its status (in docs/http.md).
    Problems,
}

impl Page {
    /// The file of the repository the page is committed as (or in).
    pub fn file(self) -> &'static str {
        match self {
            Page::Rules => "docs/rules.md",
            Page::Hooks => "docs/hooks.md",
            Page::Problems => "docs/http.md",
        }
    }

    /// The page's text.
    pub fn render(self) -> anyhow::Result<String> {
        match self {
            Page::Rules => rules_markdown(&Catalog::builtin()),
            Page::Hooks => super::hook_docs::hooks_markdown(),
            Page::Problems => Ok(crate::api::problem::problems_markdown()),
        }
    }
}

pub fn run(args: &DocsArgs) -> anyhow::Result<ExitCode> {
    let text = args.page.render()?;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

fn resolve(
    catalog: &Catalog,
    id: &str,
    options: &[String],
) -> anyhow::Result<std::sync::Arc<Variant>> {
    catalog.resolve(&RulesetRef::new(id, options)).map_err(|e| {
        anyhow::anyhow!("built-in ruleset {id} with {options:?} does not resolve: {e}")
    })
}

const RULES_INTRO: &str = "\
The rules gin-rules plays, written from the built-in rulesets themselves (`rulesets/*.yaml` and
the Rhai scripts beside them) by `gin-rules docs rules`: every row below is rendered from the data
the engine plays by, never written per variant. `gin-rules rules ID [--option X]...` prints the same
table for any ruleset and options, your own files included, and `GET /v1/rulesets/{id}?option=X`
answers it over HTTP.

## How every variant is played

- **Cards.** One 52-card deck per table, with no joker unless the ruleset sets `deck.jokers` (one
  or two). Cards are written rank then suit: `AS`, `TD` (ten of diamonds), `KH`; ranks
  `A 2 3 4 5 6 7 8 9 T J Q K`, suits `C D H S`; a joker is `JK` (the two read alike: an action
  naming `JK` means a joker the player holds, and an explicit deck lists `JK` once per joker).
- **Melds.** A *set* is cards of one rank; a *run* is consecutive cards of one suit. A card belongs
  to at most one meld. *Deadwood* is the total value of the cards in no meld, taking the arrangement
  of the hand that leaves the least.
- **Wild cards.** Where a ruleset names wild cards (`melds.wild`: `jokers`, ranks), a wild card
  stands for any card a meld lacks, in a set or in a run, and may be laid off like any card; every
  meld holds at least `melds.min_natural` natural cards. A meld's wild cards take whichever places
  keep it a meld (gaps of a run first, then above, then below; the missing suits of a set), and are
  read anew when cards are laid off onto it; events, views and `analyze` list each wild card with
  the card it stands for (`wilds`: `meld`, `card`, `as`). An unmelded wild card counts its own
  value: a joker `deck.values.joker` (25 unless set), a wild deuce 2.
- **The deal.** The dealer deals each player of the table their cards; the next card is turned up as
  the *upcard*, the start of the discard pile; the rest is the *stock*. Who deals first comes from
  the game's seed unless the request names a dealer.
- **A turn.** Draw the top card of the stock or of the discard pile, then discard one card, or go
  out instead of a plain discard. On the first turn the upcard may be offered first (see *Form*).
- **Going out.** *Knock*: discard and show your melds with your deadwood at most the knock limit.
  *Gin*: every card you keep is melded. *Big gin*: all eleven cards melded after drawing; you go out
  without discarding. After a knock the *defender* shows melds and may *lay off* deadwood cards onto
  the knocker's melds (a set up to its largest size, a run at either end). When the defender's
  deadwood then beats the knocker's, it is an *undercut*. A tie is what the ruleset's `tie` says:
  an undercut (the default), the knocker's hand, or a *wash*.
- **Scoring a hand.** The winner's points are shown as named parts that add up to them: `base` (the
  deadwood difference, or the opponent's deadwood for gin), the gin, big gin or undercut bonus, a
  `score_hand` hook's own parts (`knock bonus`), and the points a multiplier adds (`multiplier
  x2`). A hand won counts one *box* for the classic box bonus unless a hook counts more. A *wash*
  ends the hand with nobody scoring; after it the same dealer deals again, or the next seat when
  the ruleset sets `dealer.after_wash: next_in_turn`.
- **A match.** Hands are scored into the match until a side reaches the target and leads alone; a
  one-hand game ends after its first hand, dead or not.

What differs between variants is in the tables below.
";

/// `docs/rules.md`: every built-in ruleset's rules table, then what each option changes.
pub fn rules_markdown(catalog: &Catalog) -> anyhow::Result<String> {
    let mut out = String::from(
        "# The rules as played\n\n<!-- Generated by `gin-rules docs rules > docs/rules.md`; do not edit by hand. -->\n\n",
    );
    out.push_str(RULES_INTRO);
    out.push_str("\n## The rulesets\n\n| id | name | seats | match targets (default) | options |\n|---|---|---|---|---|\n");
    let infos = catalog.list();
    for info in &infos {
        let targets: Vec<String> = info.targets.iter().map(ToString::to_string).collect();
        let options: Vec<String> = info.options.iter().map(|o| format!("`{}`", o.id)).collect();
        out.push_str(&format!(
            "| `{}` | [{}](#{}) | {} | {} ({}) | {} |\n",
            info.id,
            cell(&info.name),
            anchor(&format!("{} ({})", info.name, info.id)),
            info.seats,
            targets.join(", "),
            info.default_target,
            if options.is_empty() {
                "none".to_string()
            } else {
                options.join(", ")
            }
        ));
    }
    for info in &infos {
        let base = resolve(catalog, &info.id, &[])?;
        out.push_str(&format!("\n## {} (`{}`)\n\n", info.name, info.id));
        if !info.summary.is_empty() {
            out.push_str(&format!("{}\n\n", cell(&info.summary)));
        }
        let table = rules_table(&base);
        out.push_str("| rule | as played |\n|---|---|\n");
        for row in &table {
            out.push_str(&format!("| {} | {} |\n", cell(&row.row), cell(&row.text)));
        }
        for refused in &base.refused_options {
            out.push_str(&format!(
                "\nNot offered: `{}` ({}).\n",
                refused.id,
                cell(refused.reason.trim().trim_end_matches('.'))
            ));
        }
        for option in &info.options {
            let with = resolve(catalog, &info.id, std::slice::from_ref(&option.id))?;
            out.push_str(&format!(
                "\n### Option {} (`{}` of `{}`)\n\n",
                option.name, option.id, info.id
            ));
            if !option.summary.is_empty() {
                out.push_str(&format!("{}\n\n", cell(&option.summary)));
            }
            if !option.conflicts_with.is_empty() {
                let others: Vec<String> = option
                    .conflicts_with
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect();
                out.push_str(&format!("Not with {}.\n\n", others.join(", ")));
            }
            let changed: Vec<_> = rules_table(&with)
                .into_iter()
                .zip(&table)
                .filter(|(new, old)| new.text != old.text && new.row != "Other options")
                .map(|(new, _)| new)
                .collect();
            if changed.is_empty() {
                out.push_str("It changes no row of the table.\n");
                continue;
            }
            out.push_str(&format!("| rule | with `{}` |\n|---|---|\n", option.id));
            for row in changed {
                out.push_str(&format!("| {} | {} |\n", cell(&row.row), cell(&row.text)));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruleset_and_option_has_its_section() {
        let c = Catalog::builtin();
        let text = rules_markdown(&c).unwrap();
        for info in c.list() {
            assert!(text.contains(&format!("\n## {} (`{}`)\n", info.name, info.id)));
            for o in &info.options {
                assert!(
                    text.contains(&format!("(`{}` of `{}`)", o.id, info.id)),
                    "{}",
                    o.id
                );
            }
        }
        assert!(
            text.contains("| Knocking | Not allowed, whatever your deadwood"),
            "{text}"
        );
        assert!(text.contains("Not offered: `oklahoma`"));
    }
}
