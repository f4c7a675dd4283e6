//! Pictures for people: an RGB image encoded as PNG bytes in memory (writing the file is the
//! caller's business, so generators that draw stay free of I/O).

/// Encodes `rgb` (`width × height` pixels, three bytes each, rows from the top) as PNG.
pub fn encode_png(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
    assert_eq!(
        rgb.len(),
        width as usize * height as usize * 3,
        "an RGB image of {width}×{height} pixels"
    );
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    // Encoding into memory fails only on a header that does not match the data, checked above.
    let mut writer = encoder.write_header().expect("a valid PNG header");
    writer
        .write_image_data(rgb)
        .expect("the image data fits the header");
    writer.finish().expect("the image is complete");
    png
}
