//! The debug overlay of a battle, shown and hidden with its key (F3 unless the player bound
//! another; hidden at first) while the world has the input: frame time, tick
//! time, the attackers and buildings alive, and what each mod's scripts cost in the last second
//! — instructions and milliseconds per mod, and the busiest scripts. The numbers are renewed
//! once a second, over that second.
//!
//! While the overlay is shown the battle times its script calls ([`Battle::time_scripts`]),
//! which reads the clock at every call; hidden, it costs nothing. Calls and instructions are
//! counted either way.

use std::time::Duration;

use bevy::prelude::*;

use super::bindings::Control;
use super::input::Layers;
use super::session::Game;
use super::settings::Settings;
use super::ui::{PANEL, label};
use super::{ClientSet, Screen};
use rampart_core::battle::{Battle, CostReport, CostRow, EntityKind, ScriptCosts};

/// Shows and updates the debug overlay.
pub struct DebugOverlayPlugin;

impl Plugin for DebugOverlayPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DebugOverlay>()
            .add_systems(OnEnter(Screen::Battle), spawn)
            .add_systems(
                Update,
                toggle
                    .in_set(ClientSet::Input)
                    .run_if(in_state(Screen::Battle)),
            )
            .add_systems(
                Update,
                measure
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// Scripts listed under the mods.
const TOP_SCRIPTS: usize = 5;

/// How long one measurement lasts.
const PERIOD: Duration = Duration::from_secs(1);

/// Whether the overlay is shown, and what it is measuring.
#[derive(Resource, Default)]
pub struct DebugOverlay {
    /// Whether it is shown.
    pub shown: bool,
    window: Window,
}

/// The overlay's panel.
#[derive(Component)]
struct Panel;

/// The overlay's text.
#[derive(Component)]
struct PanelText;

/// What the current period has gathered, and the battle's costs when it began.
#[derive(Default)]
pub struct Window {
    elapsed: Duration,
    frames: u32,
    longest_frame: Duration,
    ticks: u32,
    tick_time: Duration,
    /// The battle's tick and script costs when the period began; `None` before it has.
    start: Option<(u64, ScriptCosts)>,
}

/// One period's numbers, as the overlay shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The period's length.
    pub elapsed: Duration,
    /// Frames drawn in it.
    pub frames: u32,
    /// The longest of them.
    pub longest_frame: Duration,
    /// Ticks run in it.
    pub ticks: u32,
    /// The wall time of those ticks.
    pub tick_time: Duration,
    /// Attackers alive at its end.
    pub attackers: usize,
    /// Buildings standing at its end, the Hub among them.
    pub buildings: usize,
    /// What the scripts cost in it.
    pub costs: CostReport,
}

impl Window {
    /// Starts a new period from the battle as it is now.
    pub fn restart(&mut self, battle: &Battle) {
        *self = Window {
            start: Some((battle.tick(), battle.script_costs())),
            ..Window::default()
        };
    }

    /// Counts a frame of `frame` (real time, not the game's clock, which caps a slow frame) in which `ticks` ticks ran in `tick_time`; once the
    /// period is [`PERIOD`] long, ends it with what it measured and starts the next. A battle
    /// that is not the one the period began with (its tick went back) starts the period again.
    pub fn frame(
        &mut self,
        battle: &Battle,
        frame: Duration,
        (ticks, tick_time): (u32, Duration),
    ) -> Option<Summary> {
        let Some((tick, _)) = &self.start else {
            self.restart(battle);
            return None;
        };
        if battle.tick() < *tick {
            self.restart(battle);
            return None;
        }
        self.elapsed += frame;
        self.frames += 1;
        self.longest_frame = self.longest_frame.max(frame);
        self.ticks += ticks;
        self.tick_time += tick_time;
        if self.elapsed < PERIOD {
            return None;
        }
        let costs = battle.script_costs();
        let earlier = self.start.as_ref().map(|(_, c)| c);
        let spent = costs.since(earlier.unwrap_or(&ScriptCosts::default()));
        let (attackers, buildings) = alive(battle);
        let summary = Summary {
            elapsed: self.elapsed,
            frames: self.frames,
            longest_frame: self.longest_frame,
            ticks: self.ticks,
            tick_time: self.tick_time,
            attackers,
            buildings,
            costs: spent.report(TOP_SCRIPTS),
        };
        *self = Window {
            start: Some((battle.tick(), costs)),
            ..Window::default()
        };
        Some(summary)
    }
}

/// The attackers alive and the buildings standing.
fn alive(battle: &Battle) -> (usize, usize) {
    let (mut attackers, mut buildings) = (0, 0);
    for (_, e) in battle.entities() {
        match e.kind {
            EntityKind::Attacker(_) => attackers += 1,
            EntityKind::Building(_) => buildings += 1,
            EntityKind::Ability(_) => {}
        }
    }
    (attackers, buildings)
}

/// Milliseconds of `d`.
fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

impl Summary {
    /// The overlay's text.
    pub fn text(&self) -> String {
        let seconds = self.elapsed.as_secs_f64().max(f64::EPSILON);
        let frame = ms(self.elapsed) / f64::from(self.frames.max(1));
        let mut out = format!(
            "frame {frame:.1} ms (longest {:.1} ms), {:.0} fps\n",
            ms(self.longest_frame),
            f64::from(self.frames) / seconds
        );
        out += &match self.ticks {
            0 => "tick: none ran\n".to_string(),
            n => format!(
                "tick {:.2} ms, {:.0} ticks/s\n",
                ms(self.tick_time) / f64::from(n),
                f64::from(n) / seconds
            ),
        };
        out += &format!(
            "attackers alive: {}, buildings standing: {}\n",
            self.attackers, self.buildings
        );
        let c = &self.costs;
        let name = |r: &CostRow| match &r.script {
            Some(script) => format!("  [{}] {script}", r.mod_id),
            None => format!("  {}", r.mod_id),
        };
        let title = "scripts, last second";
        let rows = c.mods.iter().chain(&c.scripts);
        let width = rows
            .map(|r| name(r).chars().count())
            .fold(title.len(), usize::max);
        out += &format!("{title:<width$}  instructions        ms  share   calls");
        let row = |r: &CostRow| {
            format!(
                "\n{:<width$}  {:>12}  {:>8.2}  {:>4.0}%  {:>6}",
                name(r),
                r.instructions,
                r.wall_ms,
                100.0 * r.share,
                r.calls
            )
        };
        let all = CostRow {
            mod_id: "all".into(),
            script: None,
            calls: c.calls,
            instructions: c.instructions,
            share: 1.0,
            wall_ms: c.wall_ms,
        };
        out += &row(&all);
        out.extend(c.mods.iter().map(row));
        if !c.scripts.is_empty() {
            out += "\nbusiest scripts";
        }
        out.extend(c.scripts.iter().map(row));
        out
    }
}

/// How the panel is laid out when it is `shown` or not.
fn display(shown: bool) -> Display {
    if shown { Display::Flex } else { Display::None }
}

fn spawn(mut commands: Commands, overlay: Res<DebugOverlay>) {
    commands.spawn((
        Panel,
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(8.0),
            top: Val::Px(170.0),
            max_width: Val::Px(760.0),
            padding: UiRect::all(Val::Px(8.0)),
            display: display(overlay.shown),
            ..default()
        },
        BackgroundColor(PANEL),
        GlobalZIndex(12),
        Pickable::IGNORE,
        DespawnOnExit(Screen::Battle),
        children![(PanelText, label("measuring...", 13.0, Color::WHITE))],
    ));
}

/// The overlay's key shows or hides it; the battle times its scripts exactly while it is shown
/// (a new battle starts untimed, so this is checked every frame).
fn toggle(
    keys: Res<ButtonInput<KeyCode>>,
    settings: Res<Settings>,
    layers: Res<Layers>,
    mut overlay: ResMut<DebugOverlay>,
    mut game: NonSendMut<Game>,
    mut panels: Query<&mut Node, With<Panel>>,
    mut texts: Query<&mut Text, With<PanelText>>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    if layers.is_empty() && settings.keys.just_pressed(Control::DebugOverlay, &keys) {
        overlay.shown = !overlay.shown;
        overlay.window = Window::default();
        for mut node in &mut panels {
            node.display = display(overlay.shown);
        }
        for mut text in &mut texts {
            text.0 = "measuring...".into();
        }
    }
    if session.battle.scripts_timed() != overlay.shown {
        session.battle.time_scripts(overlay.shown);
    }
}

/// Counts the frame and the ticks it ran; once a second, shows what the second measured.
fn measure(
    time: Res<Time<Real>>,
    mut overlay: ResMut<DebugOverlay>,
    mut game: NonSendMut<Game>,
    mut texts: Query<&mut Text, With<PanelText>>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let ticks = std::mem::take(&mut session.tick_time);
    if !overlay.shown {
        return;
    }
    if let Some(summary) = overlay.window.frame(&session.battle, time.delta(), ticks) {
        let shown = summary.text();
        for mut text in &mut texts {
            text.0.clone_from(&shown);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use rampart_core::battle::{BattleConfig, Cost, Position};
    use rampart_core::content::ContentDb;
    use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};
    use rampart_core::rng::Seed;

    fn core() -> Arc<ContentDb> {
        let dirs = [ModDir {
            path: std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("mods"),
            origin: Origin::Game,
        }];
        let (db, _) = ContentDb::load(&ModSet::discover(&dirs, &ModSettings::default()));
        Arc::new(db)
    }

    #[test]
    fn a_period_ends_after_a_second_with_what_it_measured() {
        let content = core();
        let mut battle = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
        let slime = content.attacker_id("core:red_slime").unwrap();
        battle.spawn_attacker(slime, Position::default());
        let mut window = Window::default();
        let frame = Duration::from_millis(250);
        assert_eq!(window.frame(&battle, frame, (0, Duration::ZERO)), None);
        for _ in 0..3 {
            battle.step();
            let tick = (1, Duration::from_millis(2));
            assert_eq!(window.frame(&battle, frame, tick), None);
        }
        battle.step();
        let summary = window
            .frame(&battle, frame, (1, Duration::from_millis(2)))
            .expect("a second has passed");
        assert_eq!((summary.frames, summary.ticks), (4, 4));
        assert_eq!(summary.tick_time, Duration::from_millis(8));
        assert_eq!(summary.attackers, 1);
        let text = summary.text();
        assert!(
            text.starts_with("frame 250.0 ms (longest 250.0 ms), 4 fps\n"),
            "{text}"
        );
        assert!(text.contains("tick 2.00 ms, 4 ticks/s"), "{text}");
        assert!(text.contains("attackers alive: 1,"), "{text}");
        // The next period starts where this one ended.
        assert_eq!(window.frame(&battle, frame, (0, Duration::ZERO)), None);
    }

    #[test]
    fn another_battle_starts_the_period_again() {
        let content = core();
        let mut old = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
        for _ in 0..5 {
            old.step();
        }
        let mut window = Window::default();
        let second = Duration::from_secs(1);
        assert_eq!(window.frame(&old, second, (0, Duration::ZERO)), None);
        let new = Battle::new(content, BattleConfig::new(Seed(2)));
        assert_eq!(
            window.frame(&new, second, (0, Duration::ZERO)),
            None,
            "the tick went back: a new period, not a second of the old battle's costs"
        );
        assert!(window.frame(&new, second, (0, Duration::ZERO)).is_some());
    }

    #[test]
    fn the_text_lists_each_mod_and_the_busiest_scripts() {
        let mut costs = ScriptCosts::default();
        let cost = |instructions, ms| Cost {
            calls: 10,
            instructions,
            wall: Duration::from_millis(ms),
        };
        costs.add_script("core", "scripts/hub.lua", cost(300, 1));
        costs.add_script("frost", "scripts/icicle.lua", cost(100, 2));
        let summary = Summary {
            elapsed: Duration::from_secs(1),
            frames: 60,
            longest_frame: Duration::from_millis(20),
            ticks: 0,
            tick_time: Duration::ZERO,
            attackers: 0,
            buildings: 1,
            costs: costs.report(TOP_SCRIPTS),
        };
        let text = summary.text();
        assert!(text.contains("tick: none ran"), "{text}");
        let lines: Vec<&str> = text.lines().skip(3).collect();
        assert_eq!(
            lines,
            [
                "scripts, last second          instructions        ms  share   calls",
                "  all                                  400      3.00   100%      20",
                "  core                                 300      1.00    75%      10",
                "  frost                                100      2.00    25%      10",
                "busiest scripts",
                "  [core] scripts/hub.lua               300      1.00    75%      10",
                "  [frost] scripts/icicle.lua           100      2.00    25%      10",
            ],
            "{text}"
        );
    }
}
