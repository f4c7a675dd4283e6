//! The balance plot of `rampart breed --plot`: difficulty by level number — the target curve as a
//! line, measured levels as points with two standard errors either side.

use plotters::prelude::*;

/// The font of the plot's text, from `crates/balance/fonts` (SIL Open Font License).
static FONT: &[u8] = include_bytes!("../fonts/FiraMono-subset.ttf");

const WIDTH: u32 = 900;
const HEIGHT: u32 = 520;

/// One series of the plot.
pub struct Series<'a> {
    /// Its name in the legend.
    pub name: &'a str,
    /// `(level, difficulty, standard error)`.
    pub points: Vec<(u32, f64, f64)>,
    /// Its colour, RGB.
    pub colour: (u8, u8, u8),
    /// A line through the points (a target) rather than points with error bars (measurements).
    pub line: bool,
    /// Points are drawn this far right of their level, so series at one level do not overlap.
    pub offset: f64,
}

/// The plot of `series` with `title`, as PNG bytes.
pub fn plot(title: &str, series: &[Series]) -> Result<Vec<u8>, String> {
    static REGISTER: std::sync::Once = std::sync::Once::new();
    REGISTER.call_once(|| {
        // The font is part of the binary; failing to read it is a build mistake, caught by tests.
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
            .unwrap_or_else(|_| panic!("crates/balance/fonts/FiraMono-subset.ttf is not a font"));
    });
    let mut rgb = vec![255u8; (WIDTH * HEIGHT * 3) as usize];
    draw(&mut rgb, title, series).map_err(|e| format!("cannot draw the plot: {e}"))?;
    Ok(rampart_core::picture::encode_png(WIDTH, HEIGHT, &rgb))
}

fn draw(rgb: &mut [u8], title: &str, series: &[Series]) -> Result<(), Box<dyn std::error::Error>> {
    let root = BitMapBackend::with_buffer(rgb, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let levels = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (first, last) = levels.fold((u32::MAX, 0), |(a, b), l| (a.min(l), b.max(l)));
    let (first, last) = if first > last { (1, 1) } else { (first, last) };
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(f64::from(first) - 0.5..f64::from(last) + 0.5, 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_desc("level")
        .y_desc("difficulty")
        .x_labels((last - first + 1) as usize)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(11)
        .light_line_style(WHITE)
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    for s in series {
        let colour = RGBColor(s.colour.0, s.colour.1, s.colour.2);
        let at = |level: u32| f64::from(level) + s.offset;
        let drawn = if s.line {
            chart.draw_series(LineSeries::new(
                s.points.iter().map(|&(l, v, _)| (at(l), v)),
                colour.stroke_width(2),
            ))?
        } else {
            chart.draw_series(s.points.iter().map(|&(l, v, e)| {
                let (low, high) = ((v - 2.0 * e).max(0.0), (v + 2.0 * e).min(1.0));
                ErrorBar::new_vertical(at(l), low, v, high, colour.stroke_width(2), 10)
            }))?;
            chart.draw_series(
                s.points
                    .iter()
                    .map(|&(l, v, _)| Circle::new((at(l), v), 4, colour.filled())),
            )?
        };
        drawn.label(s.name).legend(move |(x, y)| {
            PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3))
        });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .draw()?;
    root.present()?;
    Ok(())
}
