//! Tests of `engine/search/table.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn read_back(bytes: &[u8]) -> Table {
    Table::from_stored(crate::cache::decode(bytes).unwrap(), 4).unwrap()
}

fn unit(v: &[f32]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.iter().map(|x| x / n).collect()
}

#[test]
fn quantised_cosine_is_close_to_the_exact_one() {
    let a = unit(
        &(0..128)
            .map(|i| ((i * 7) % 13) as f32 - 6.0)
            .collect::<Vec<_>>(),
    );
    let b = unit(
        &(0..128)
            .map(|i| ((i * 5) % 11) as f32 - 5.0)
            .collect::<Vec<_>>(),
    );
    let exact: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let (qa, qb) = (quantise(&a), quantise(&b));
    let approx = dot_i8(&qa.values, &qb.values) as f32 * qa.scale * qb.scale;
    assert!((exact - approx).abs() < 0.01, "{exact} vs {approx}");
}

#[test]
fn nearest_ranks_by_cosine_and_forgets_removed_rows() {
    let mut t = Table::new(4);
    t.put("a", AssetType::Tool, 1, Some(&unit(&[1.0, 0.0, 0.0, 0.0])));
    t.put("b", AssetType::Tool, 2, Some(&unit(&[1.0, 1.0, 0.0, 0.0])));
    t.put("c", AssetType::Tool, 3, Some(&unit(&[0.0, 0.0, 1.0, 0.0])));
    t.put("none", AssetType::Tool, 4, None);
    let q = unit(&[1.0, 0.2, 0.0, 0.0]);
    let keys: Vec<&str> = t.nearest(&q, 2).into_iter().map(|(_, k)| k).collect();
    assert_eq!(keys, ["a", "b"]);
    t.remove("a");
    let keys: Vec<&str> = t.nearest(&q, 5).into_iter().map(|(_, k)| k).collect();
    assert_eq!(keys, ["b", "c"]);
    // A freed slot is reused, and the table round-trips through its encoding.
    t.put(
        "d",
        AssetType::Toolbox,
        5,
        Some(&unit(&[0.0, 1.0, 0.0, 0.0])),
    );
    let bytes = crate::cache::encode(&t.stored());
    let back = read_back(&bytes);
    assert_eq!(back.len(), 4);
    assert_eq!(back.stamp("d"), Some(5));
    assert_eq!(back.stamp("a"), None);
    let keys: Vec<&str> = back.nearest(&q, 1).into_iter().map(|(_, k)| k).collect();
    assert_eq!(keys, ["b"]);
}

#[test]
fn a_table_read_back_lists_its_tools_in_order_until_a_key_is_added_or_removed() {
    let mut t = Table::new(4);
    for (key, stamp) in [
        ("tool:b.x", 2),
        ("toolbox:b", 9),
        ("tool:a.y", 1),
        ("tool:c", 3),
    ] {
        t.put(key, AssetType::Tool, stamp, None);
    }
    assert!(
        t.tools_in_order().is_none(),
        "built by puts: slots in put order"
    );
    let bytes = crate::cache::encode(&t.stored());
    let mut back = read_back(&bytes);
    let (keys, stamps) = back.tools_in_order().unwrap();
    let keys: Vec<&str> = keys.iter().map(|k| &**k).collect();
    assert_eq!(keys, ["tool:a.y", "tool:b.x", "tool:c"]);
    assert_eq!(stamps, [1, 2, 3]);
    // A changed stamp keeps the order; a new key or a removed one does not.
    back.put("tool:b.x", AssetType::Tool, 7, None);
    assert_eq!(back.tools_in_order().unwrap().1, [1, 7, 3]);
    back.put("tool:aa", AssetType::Tool, 4, None);
    assert!(back.tools_in_order().is_none());
    let mut again = read_back(&bytes);
    again.remove("tool:c");
    assert!(again.tools_in_order().is_none());
}
