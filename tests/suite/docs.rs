//! The modding docs' Lua examples compile, and every chain is documented.

use std::path::Path;

fn docs() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/modding");
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    pages.sort();
    pages
}

#[test]
fn every_lua_example_compiles() {
    let mut count = 0;
    for (page, text) in docs() {
        for block in text.split("```lua").skip(1) {
            let code = block.split("```").next().unwrap();
            if let Err((line, message)) = rampart::lua::compile(code) {
                panic!("{page}: example does not compile (line {line:?}: {message}):\n{code}");
            }
            count += 1;
        }
    }
    assert!(count >= 15, "only {count} examples found");
}

#[test]
fn every_chain_is_documented() {
    let api = docs()
        .into_iter()
        .find(|(p, _)| p.ends_with("lua-api.md"))
        .unwrap()
        .1;
    for (name, _) in rampart::battle::Chains::ALL {
        assert!(
            api.contains(&format!("`{name}`")),
            "chain `{name}` is missing from lua-api.md"
        );
    }
}
