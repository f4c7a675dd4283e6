//! The client's frame: the CPU time of the systems that draw the battle (units, their HP bars,
//! the HUD and wave preview, what scripts draw, and the feedback of every hit) in one frame,
//! with 2 000 attackers and 150 towers on screen, against the goal of 4 ms. GPU time is not
//! measured: the app runs without a window or renderer (Bevy's minimal plugins, its assets and
//! states, and the client's presenting plugins), over a real battle of core content.
//!
//! The battle is a run's first level with its world, every core tower kind placed in turn on
//! 150 tiles and core's attacker types spread along its paths; the battle ticks every third
//! frame (20 ticks a second at 60 frames) outside the measured time, and attackers that died or
//! got through are replaced, so every frame draws about 2 000. The measured time is one
//! `App::update` — the client's systems, and the little the minimal plugins do.
//!
//! Run with `cargo bench -p rampart-client --bench frame`; results go in docs/benchmarks.md.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::asset::AssetPlugin;
use bevy::camera::{CameraProjection, RenderTargetInfo, ScalingMode};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use criterion::{Criterion, criterion_group, criterion_main};

use rampart_client::camera::Rig;
use rampart_client::input::Layers;
use rampart_client::palette::Palette;
use rampart_client::rich::Icons;
use rampart_client::session::{Game, Session};
use rampart_client::settings::Settings;
use rampart_client::{ClientSet, Content, Loaded, PresentPlugins, Screen, feedback};
use rampart_core::battle::{Battle, EntityKind, PlayerCommand, Position};
use rampart_core::content::{BlueprintKind, ContentDb, Size};
use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};
use rampart_core::run::RunConfig;

const ATTACKERS: usize = 2000;
const TOWERS: usize = 150;

/// The core mod as the game loads it.
fn core_content() -> Loaded {
    let dirs = [ModDir {
        path: Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("mods"),
        origin: Origin::Game,
    }];
    let set = ModSet::discover(&dirs, &ModSettings::default());
    let (db, diagnostics) = ContentDb::load(&set);
    assert!(!diagnostics.has_errors());
    let mods = set.list(diagnostics.iter());
    Loaded { db, mods }
}

/// How many attackers `battle` has.
fn attackers(battle: &Battle) -> usize {
    battle
        .entities()
        .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
        .count()
}

/// Brings `battle` up to [`ATTACKERS`] attackers of core's types other than bosses, spread
/// along every path; `salt` varies where the new ones stand. Returns how many it brought.
fn fill(battle: &mut Battle, salt: usize) -> usize {
    let content = battle.content().clone();
    let types: Vec<_> = content
        .attackers
        .iter()
        .filter(|a| a.size != Size::Boss)
        .map(|a| content.attacker_id(&a.id).unwrap())
        .collect();
    let have = attackers(battle);
    battle.spread_attackers(&types, have + salt..ATTACKERS + salt, 0.037);
    ATTACKERS.saturating_sub(have)
}

/// A session on a run's first level, with [`TOWERS`] core towers placed and the wave running
/// with [`ATTACKERS`] attackers.
fn session(content: &Arc<ContentDb>) -> Session {
    let mut session = Session::start(content, RunConfig::new(7)).unwrap();
    let mut config = session.plan.setup.config(content).unwrap();
    config.start.collection = None;
    config.start.materials = 1e12;
    config.start.energy = 1e12;
    config.start.energy_cap = 1e12;
    config.start.hull = 1e12;
    let mut battle = Battle::new(content.clone(), config);
    let kinds: Vec<&str> = content
        .blueprints
        .iter()
        .filter(|bp| bp.kind == BlueprintKind::Tower)
        .map(|bp| bp.id.as_str())
        .collect();
    let world = battle.field().unwrap().world().clone();
    let mut placed = 0;
    'tiles: for y in 0..world.grid.height {
        for x in 0..world.grid.width {
            if placed == TOWERS {
                break 'tiles;
            }
            let at = Position {
                x: f64::from(x),
                y: f64::from(y),
            };
            if (0..kinds.len()).any(|k| {
                battle
                    .place(kinds[(placed + k) % kinds.len()], at, 0)
                    .is_ok()
            }) {
                placed += 1;
            }
        }
    }
    assert_eq!(
        placed, TOWERS,
        "room for the towers on a {}x{} world",
        world.grid.width, world.grid.height
    );
    battle.submit(PlayerCommand::StartWave);
    battle.step();
    fill(&mut battle, 0);
    // Let the towers find their targets and shots fill the air.
    battle.run_ticks(40);
    fill(&mut battle, 1);
    battle.drain_log();
    session.battle = battle;
    session
}

/// The client without a window: Bevy's minimal plugins, assets and states, the resources the
/// presenting plugins read, those plugins, and a camera; on the battle screen.
fn app(loaded: Loaded) -> App {
    let loaded = Content::new(loaded, Vec::new());
    let game = session(&loaded.db);
    let world = game.battle.field().unwrap().world().clone();
    let camera = camera(world.grid.width, world.grid.height);
    let settings = Settings::default();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), StatesPlugin))
        .init_asset::<Mesh>()
        .init_asset::<StandardMaterial>()
        .init_asset::<Image>()
        .insert_resource(loaded)
        .insert_resource(Palette::of(&settings))
        .insert_resource(settings)
        .init_resource::<Icons>()
        .init_resource::<Layers>()
        .init_resource::<UiScale>()
        .insert_non_send(Game(Some(game)))
        .insert_state(Screen::Battle)
        .configure_sets(
            Update,
            (ClientSet::Input, ClientSet::Simulate, ClientSet::Present).chain(),
        )
        .add_plugins(PresentPlugins);
    app.world_mut().spawn(camera);
    app
}

/// The game's camera as it frames a `width` × `height` world in a 1280×720 window: at the
/// isometric angle, orthographic, its projection and viewport worked out as the renderer would
/// (there is none), so that what is on screen and where labels go are computed as in the game.
fn camera(width: i32, height: i32) -> impl Bundle {
    let (w, h) = (1280, 720);
    let centre = Vec3::new(width as f32 / 2.0, 0.0, -height as f32 / 2.0);
    let mut projection = OrthographicProjection {
        scaling_mode: ScalingMode::FixedVertical {
            viewport_height: width.max(height) as f32 * 0.85,
        },
        near: -200.0,
        far: 400.0,
        ..OrthographicProjection::default_3d()
    };
    projection.update(w as f32, h as f32);
    let mut camera = Camera::default();
    camera.computed.clip_from_view = projection.get_clip_from_view();
    camera.computed.target_info = Some(RenderTargetInfo {
        physical_size: UVec2::new(w, h),
        scale_factor: 1.0,
    });
    let at = Transform::from_translation(centre + Vec3::new(1.0, 1.15, 1.0) * 40.0)
        .looking_at(centre, Vec3::Y);
    (
        Camera3d::default(),
        // The window's camera, as the client's systems find it.
        Rig::default(),
        camera,
        Projection::Orthographic(projection),
        at,
        GlobalTransform::from(at),
    )
}

/// Runs the battle on by frame `frame`: a tick every third frame, the log taken, attackers
/// replaced. Returns how many were, if it ticked.
fn advance(app: &mut App, frame: usize) -> Option<usize> {
    let mut game = app.world_mut().non_send_mut::<Game>();
    let session = game.0.as_mut().unwrap();
    if frame.is_multiple_of(3) {
        session.battle.step();
        let replaced = fill(&mut session.battle, frame);
        session.take_log();
        Some(replaced)
    } else {
        session.frame_log.clear();
        None
    }
}

fn frame(c: &mut Criterion) {
    let mut app = app(core_content());
    // The first frames spawn every scene entity; after them a frame is a steady one.
    for frame in 0..30 {
        advance(&mut app, frame);
        app.update();
    }
    let mut frame = 30;
    // Attackers replaced and ticks, for the churn of scene entities each tick brings.
    let (mut replaced, mut ticks) = (0, 0);
    let mut group = c.benchmark_group("frame");
    group.sample_size(20);
    group.bench_function(format!("{ATTACKERS}x{TOWERS}"), |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                if let Some(n) = advance(&mut app, frame) {
                    replaced += n;
                    ticks += 1;
                }
                frame += 1;
                let start = Instant::now();
                app.update();
                spent += start.elapsed();
            }
            black_box(&app);
            spent
        })
    });
    group.finish();
    let game = app.world().non_send::<Game>();
    let battle = &game.0.as_ref().unwrap().battle;
    println!(
        "on screen at the end: {} attackers, {} buildings, {} shots, {} particles, {} scene entities; \
         {:.1} attackers replaced a tick",
        attackers(battle),
        battle.entities().count() - attackers(battle),
        battle.state().shots.len(),
        app.world()
            .resource::<feedback::particles::Particles>()
            .len(),
        app.world().entities().count_spawned(),
        replaced as f64 / f64::from(ticks.max(1)),
    );
}

criterion_group!(benches, frame);
criterion_main!(benches);
