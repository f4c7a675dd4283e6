//! Drawing from scripts (`game:draw_line`, `game:draw_ring`, `game:flash`): checking what a
//! script gives, and logging the visual within the mod's allowance per tick. Nothing here
//! changes the battle; see `battle::visuals`.

use mlua::{FromLua, Lua, Value};

use super::call::log_for_player;
use super::types::{LuaType, LuaTyped, record};
use crate::battle::entity::Position;
use crate::battle::log::LogKind;
use crate::battle::scripting::limits::Shown;
use crate::battle::visuals::{
    DEFAULT_VISUAL_TICKS, MAX_VISUAL_RADIUS, MAX_VISUAL_TICKS, MAX_VISUAL_WIDTH,
};
use crate::battle::visuals::{Figure, Visual};
use crate::content::colour::Rgb;
use crate::diagnostics::did_you_mean;
use rampart_lua::{Fault, ScriptErrorKind};

/// The width of a line or ring whose options do not give one, in tiles.
const DEFAULT_WIDTH: f64 = 0.08;

/// The radius of a flash whose options do not give one, in tiles.
const DEFAULT_FLASH_RADIUS: f64 = 0.5;

record! {
    /// The options of `game:draw_line`, `game:draw_ring` and `game:flash`; every one may be
    /// left out.
    pub(super) struct DrawOptions: FromLua {
        /// `"#rrggbb"` or a colour's name (`"white"`, `"red"`, …); white if not given.
        colour: Option<String>,
        /// How many ticks it shows: a whole number of at least 1, at most 200 (more is taken
        /// as 200); 10 if not given.
        ticks: Option<f64>,
        /// How opaque, from 0 to 1; 1 if not given.
        alpha: Option<f64>,
        /// A line's or ring's width in tiles, more than 0 and at most 1; 0.08 if not given.
        width: Option<f64>,
        /// A flash's radius in tiles, more than 0 and at most 100; 0.5 if not given.
        radius: Option<f64>,
    }
}

/// The options as a script gives them: a table of [`DrawOptions`] or `nil`. A key that is no
/// option is refused, so that `color` or `tick` is not silently ignored.
pub(super) struct Options(DrawOptions);

impl FromLua for Options {
    fn from_lua(value: Value, lua: &Lua) -> mlua::Result<Self> {
        if let Value::Table(table) = &value {
            let known = DrawOptions::RECORD.fields.iter().map(|f| f.name);
            for pair in table.pairs::<Value, Value>() {
                let (key, _) = pair?;
                let key = match key {
                    Value::String(s) => s.to_string_lossy(),
                    other => format!("{other:?}"),
                };
                if !known.clone().any(|k| k == key) {
                    let hint = did_you_mean(&key, known.clone())
                        .map(|h| format!(" ({h})"))
                        .unwrap_or_default();
                    let names: Vec<&str> = known.collect();
                    return Err(mlua::Error::runtime(format!(
                        "`{key}` is not an option{hint}; the options are {}",
                        names.join(", ")
                    )));
                }
            }
        }
        match value {
            Value::Nil => Ok(Options(DrawOptions {
                colour: None,
                ticks: None,
                alpha: None,
                width: None,
                radius: None,
            })),
            value => DrawOptions::from_lua(value, lua).map(Options),
        }
    }
}

impl LuaTyped for Options {
    const TYPE: LuaType = LuaType::Optional(&LuaType::Record(&DrawOptions::RECORD));
}

/// Which function is drawing, for its messages.
#[derive(Clone, Copy)]
enum Drawing {
    /// `game:draw_line`.
    Line,
    /// `game:draw_ring`.
    Ring,
    /// `game:flash`.
    Flash,
}

impl Drawing {
    fn function(self) -> &'static str {
        match self {
            Drawing::Line => "game:draw_line",
            Drawing::Ring => "game:draw_ring",
            Drawing::Flash => "game:flash",
        }
    }
}

/// The checks of one call's arguments: each failure is a script error at the caller's line
/// naming the function and the argument.
struct Check<'a> {
    lua: &'a Lua,
    drawing: Drawing,
}

impl Check<'_> {
    fn refuse(&self, message: String) -> mlua::Error {
        Fault::here(
            self.lua,
            ScriptErrorKind::Runtime,
            format!("{}: {message}", self.drawing.function()),
        )
    }

    /// A point's coordinates, which must be finite.
    fn point(&self, (x, y): (&str, &str), at: (f64, f64)) -> mlua::Result<Position> {
        for (name, value) in [(x, at.0), (y, at.1)] {
            if !value.is_finite() {
                return Err(self.refuse(format!("{name} must be a finite number, not {value}")));
            }
        }
        Ok(Position { x: at.0, y: at.1 })
    }

    /// A length (a radius, a width): more than 0 and at most `max`, or `default` when not given.
    fn length(&self, name: &str, value: Option<f64>, default: f64, max: f64) -> mlua::Result<f64> {
        let value = value.unwrap_or(default);
        if !(value > 0.0 && value <= max) {
            return Err(self.refuse(format!(
                "{name} must be more than 0 and at most {max}, not {value}"
            )));
        }
        Ok(value)
    }

    /// A line's or ring's width from the options.
    fn width(&self, options: &DrawOptions) -> mlua::Result<f64> {
        self.length(
            "options.width",
            options.width,
            DEFAULT_WIDTH,
            MAX_VISUAL_WIDTH,
        )
    }

    /// Refuses option `name` where it means nothing (a line has no radius), if `given`.
    fn unused(&self, name: &str, given: bool) -> mlua::Result<()> {
        match given {
            true => Err(self.refuse(format!("options.{name} means nothing here"))),
            false => Ok(()),
        }
    }

    /// The options other than a flash's radius, read into a visual of `figure`.
    fn visual(&self, figure: Figure, options: &DrawOptions) -> mlua::Result<Visual> {
        let colour = match &options.colour {
            None => Rgb(255, 255, 255),
            Some(text) => {
                Rgb::parse(text).map_err(|why| self.refuse(format!("options.colour: {why}")))?
            }
        };
        let alpha = options.alpha.unwrap_or(1.0);
        if !(0.0..=1.0).contains(&alpha) {
            return Err(self.refuse(format!("options.alpha must be from 0 to 1, not {alpha}")));
        }
        let ticks = options.ticks.unwrap_or(f64::from(DEFAULT_VISUAL_TICKS));
        if !(ticks >= 1.0 && ticks.fract() == 0.0) {
            return Err(self.refuse(format!(
                "options.ticks must be a whole number of at least 1, not {ticks}"
            )));
        }
        Ok(Visual {
            figure,
            colour,
            alpha,
            ticks: ticks.min(f64::from(MAX_VISUAL_TICKS)) as u32,
        })
    }
}

/// `game:draw_line(x1, y1, x2, y2, options)`.
pub(super) fn line(
    lua: &Lua,
    from: (f64, f64),
    to: (f64, f64),
    options: Options,
) -> mlua::Result<()> {
    draw(lua, Drawing::Line, options, |check, options| {
        Ok(Figure::Line {
            from: check.point(("x1", "y1"), from)?,
            to: check.point(("x2", "y2"), to)?,
            width: check.width(options)?,
        })
    })
}

/// `game:draw_ring(x, y, radius, options)`.
pub(super) fn ring(lua: &Lua, at: (f64, f64), radius: f64, options: Options) -> mlua::Result<()> {
    draw(lua, Drawing::Ring, options, |check, options| {
        Ok(Figure::Ring {
            center: check.point(("x", "y"), at)?,
            radius: check.length("radius", Some(radius), radius, MAX_VISUAL_RADIUS)?,
            width: check.width(options)?,
        })
    })
}

/// `game:flash(x, y, options)`.
pub(super) fn flash(lua: &Lua, at: (f64, f64), options: Options) -> mlua::Result<()> {
    draw(lua, Drawing::Flash, options, |check, options| {
        Ok(Figure::Flash {
            at: check.point(("x", "y"), at)?,
            radius: check.length(
                "options.radius",
                options.radius,
                DEFAULT_FLASH_RADIUS,
                MAX_VISUAL_RADIUS,
            )?,
        })
    })
}

/// Checks a call of `drawing`: the figure `figure` makes of the arguments, then the options
/// (one the figure has no use for is refused); logs the visual if all is well.
fn draw(
    lua: &Lua,
    drawing: Drawing,
    options: Options,
    figure: impl FnOnce(&Check, &DrawOptions) -> mlua::Result<Figure>,
) -> mlua::Result<()> {
    let check = Check { lua, drawing };
    let options = options.0;
    let figure = figure(&check, &options)?;
    match drawing {
        Drawing::Line | Drawing::Ring => check.unused("radius", options.radius.is_some())?,
        Drawing::Flash => check.unused("width", options.width.is_some())?,
    }
    let visual = check.visual(figure, &options)?;
    log_for_player(
        lua,
        drawing.function(),
        Shown::Visual,
        LogKind::Drawn(visual),
    )
}
