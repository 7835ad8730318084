"""``Program.show_graph()`` / ``pypto.viz.draw_program``: the SVG is parsed back
(xml.etree) and its boxes, labels, groups, arrows and region tree are checked."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import pypto.language as pl
from pypto import ir
from pypto.viz import draw_program, needs_passes
from pypto.viz.layout import layered_layout

NS = "{http://www.w3.org/2000/svg}"
T = pl.Tensor[[64], pl.FP32]


@pl.program
class Blocks:
    @pl.function
    def main(self, a: T, out: pl.Out[T]) -> T:
        for i in pl.spmd(4):
            t = pl.load(a, [i * 16], [16])
            out = pl.store(pl.exp(t), [i * 16], out)
        with pl.cluster():
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(a, [0], [16])
                out = pl.store(pl.exp(t), [0], out)
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(a, [16], [16])
                out = pl.store(pl.exp(t), [16], out)
        return out


@pl.program
class Layers:
    @pl.function(type=pl.FunctionType.Orchestration)
    def entry(self, w: T, acc: pl.InOut[T]) -> T:
        for i in pl.range(4):
            with pl.graph("step"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.add(pl.load(w, [0], [64]), pl.load(acc, [0], [64]))
                    pl.store(t, [0], acc)
                with pl.at(level=pl.Level.CORE_GROUP):
                    t = pl.exp(pl.load(acc, [0], [64]))
                    pl.store(t, [0], acc)
        return acc


@pl.program
class Levels:
    @pl.function
    def main(self, x: T) -> T:
        with pl.at(level=pl.Level.HOST):
            y = pl.add(x, x)
        return y


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def boxes(root: ET.Element, kind: str = "function") -> dict[str, ET.Element]:
    return {g.get("data-name"): g for g in root.iter(f"{NS}g") if g.get("class") == kind}


def texts(group: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in group.iter(f"{NS}text")]


def calls(root: ET.Element) -> set[tuple[str, str]]:
    return {(p.get("data-from"), p.get("data-to")) for p in root.iter(f"{NS}path")
            if p.get("class") == "call"}


def rect(group: ET.Element) -> tuple[float, float, float, float]:
    r = group.find(f"{NS}rect")
    return tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))


def test_functions_are_boxes_labelled_with_type_level_and_role():
    root = parse(Blocks.show_graph().svg)
    found = boxes(root)
    assert set(found) == {"main", "main_spmd_0", "main_cluster_0", "main_incore_0",
                          "main_incore_1", "main_incore_2"}
    assert texts(found["main"]) == ["main", "Orchestration · CHIP · Orchestrator"]
    assert texts(found["main_cluster_0"]) == ["main_cluster_0",
                                              "Group · CORE_GROUP · SubWorker"]
    assert texts(found["main_spmd_0"]) == ["main_spmd_0", "Spmd"]
    assert found["main_incore_1"].get("data-type") == "InCore"


def test_calls_are_arrows_with_their_launch_size():
    root = parse(Blocks.show_graph().svg)
    assert calls(root) == {("main", "main_spmd_0"), ("main", "main_cluster_0"),
                           ("main_spmd_0", "main_incore_0"),
                           ("main_cluster_0", "main_incore_1"),
                           ("main_cluster_0", "main_incore_2")}
    notes = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "call-note"]
    assert notes == ["core_num=4"]
    for path in root.iter(f"{NS}path"):
        if path.get("class") == "call":
            assert path.get("marker-end") == "url(#pypto-arrow)"


def test_every_call_points_down_and_no_boxes_overlap():
    root = parse(Blocks.show_graph().svg)
    found = {name: rect(g) for name, g in boxes(root).items()}
    for caller, callee in calls(root):
        assert found[callee][1] > found[caller][1] + found[caller][3]
    frames = list(found.values())
    for i, (x, y, w, h) in enumerate(frames):
        for (x2, y2, w2, h2) in frames[i + 1:]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y


def test_a_graph_function_groups_its_kernels():
    root = parse(Layers.show_graph().svg)
    (group,) = boxes(root, "graph-group").values()
    assert group.get("data-name") == "step" and group.get("data-type") == "Graph"
    inner = boxes(group)
    assert set(inner) == {"step_incore_0", "step_incore_1"}
    gx, gy, gw, gh = rect(group)
    for kernel in inner.values():
        x, y, w, h = rect(kernel)
        assert gx < x and x + w < gx + gw and gy < y and y + h < gy + gh
    assert calls(root) == {("entry", "step"), ("step", "step_incore_0"),
                           ("step", "step_incore_1")}
    assert set(boxes(root)) == {"entry", "step_incore_0", "step_incore_1"}


def test_the_region_tree_says_which_region_became_which_function():
    root = parse(Blocks.show_graph().svg)
    (tree,) = [g for g in root.iter(f"{NS}g") if g.get("class") == "regions"]
    rows = [(g.get("data-kind"), "".join(g.find(f"{NS}text").itertext()),
             g.get("data-functions")) for g in tree.iter(f"{NS}g") if g.get("class") == "region"]
    line = Blocks["main"].span.begin_line
    assert rows == [
        ("function", "main", ""),
        ("spmd", f"pl.spmd(4)  line {line + 1}  → main_spmd_0", "main_spmd_0"),
        ("at", f"pl.at(level=CORE_GROUP)  line {line + 1}  → main_incore_0", "main_incore_0"),
        ("cluster", f"pl.cluster()  line {line + 4}  → main_cluster_0", "main_cluster_0"),
        ("at", f"pl.at(level=CORE_GROUP)  line {line + 5}  → main_incore_1", "main_incore_1"),
        ("at", f"pl.at(level=CORE_GROUP)  line {line + 8}  → main_incore_2", "main_incore_2"),
    ]


def test_regions_match_functions_by_span_and_kind_not_by_name():
    compiled = ir.PassManager.get_strategy().run_passes(Layers)
    renamed = ir.Program([f.replace(name=f"f{i}") if f.name != "entry" else f
                          for i, f in enumerate(compiled.functions.values())], "Layers")
    from pypto.viz import region_tree
    (entry,) = region_tree(Layers, renamed)
    (graph,) = entry.children
    assert graph.text == 'pl.graph("step")'
    assert [renamed[n].func_type for n in graph.functions] == [ir.FunctionType.Graph]
    assert [[renamed[n].func_type for n in c.functions] for c in graph.children] == \
        [[ir.FunctionType.InCore], [ir.FunctionType.InCore]]
    assert graph.children[0].functions != graph.children[1].functions
    compiled = ir.PassManager.get_strategy().run_passes(Levels)
    (main,) = region_tree(Levels, compiled)
    (host,) = main.children
    assert host.text == "pl.at(level=HOST)" and host.functions == ["main_host_0"]
    assert compiled["main_host_0"].level is ir.Level.HOST


def test_a_region_that_no_pass_lifted_says_so():
    from pypto import passes
    ssa = passes.build_pipeline("convert-to-ssa").run(Layers)
    root = parse(draw_program(Layers, compiled=ssa).svg)
    rows = ["".join(g.find(f"{NS}text").itertext()) for g in root.iter(f"{NS}g")
            if g.get("class") == "region"]
    assert rows[1].endswith("→ not outlined")


def test_a_compiled_program_is_drawn_as_it_is():
    compiled = ir.PassManager.get_strategy().run_passes(Layers)
    assert needs_passes(Layers) and not needs_passes(compiled)
    root = parse(compiled.show_graph().svg)
    assert not [g for g in root.iter(f"{NS}g") if g.get("class") == "regions"]
    assert set(boxes(root)) | set(boxes(root, "graph-group")) == set(compiled.functions)
    assert root.find(f"{NS}title").text == "Layers"


def test_the_picture_is_deterministic_and_saves(tmp_path):
    picture = Blocks.show_graph()
    assert picture.svg == Blocks.show_graph().svg
    assert picture._repr_svg_() == picture.svg
    picture.save(tmp_path / "p.svg")
    assert (tmp_path / "p.svg").read_text(encoding="utf-8") == picture.svg
    assert repr(picture).startswith("<Picture 'Blocks after the passes': ")


def test_draw_program_refuses_what_is_not_a_program():
    with pytest.raises(TypeError, match="draw_program expects an ir.Program, got Function"):
        draw_program(Blocks["main"])


def test_layout_layers_follow_the_longest_call_path_and_survive_cycles():
    sizes = {n: (40.0, 20.0) for n in "abcd"}
    placed = layered_layout(list("abcd"), sizes, [("a", "b"), ("b", "c"), ("a", "c"),
                                                  ("c", "b"), ("d", "d")])
    assert [placed[n].layer for n in "abc"] == [0, 1, 2]
    assert placed["d"].layer == 0
    assert placed["a"].y < placed["b"].y < placed["c"].y
