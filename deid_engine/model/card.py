"""MODEL_CARD.md from a model folder's ``model.json`` (human-readable card)."""

from __future__ import annotations

import json
from pathlib import Path

LICENCES = {
    "physionet-deid": "PhysioNet deid 1.1 gold standard (GPL-2.0)",
    "train": "see data folder",
    "meddocan": "MEDDOCAN (CC BY 4.0)",
    "clinical-visit-notes": "ACI-Bench and MTS-Dialog (CC BY 4.0)",
    "english_probe": "the project's own invented probe texts (tests/fixtures/english_probe, Apache-2.0)",
}


def write_model_card(folder: Path, extra: str = "") -> Path:
    card = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    tr = card.get("training", {})
    sk = card.get("skeleton", {})
    net = card.get("net", {})
    lines = [f"# DeID Studio tagger model: {folder.name}", "",
             f"Format `{card['format']}`, tokenizer `{card['tokenizer']}`, language `{card.get('lang')}`, "
             f"saved {card.get('saved', card.get('date'))}.", "",
             "## Architecture", "",
             f"BiLSTM-CRF (hidden {net.get('hidden')} per direction), word embeddings {net.get('word_dim')}d "
             f"({net.get('n_words')} words{', GloVe 6B 50d initialised' if tr.get('glove') else ''}), "
             f"character CNN {'%d filters' % net.get('char_filters') if net.get('use_char') else 'disabled'}, "
             f"{net.get('n_feats')} casing/layout features, text-skeleton branch "
             f"{'(r = %s, t = %s, %s skeleton words)' % (sk.get('r'), sk.get('t'), sk.get('vocab_size')) if net.get('use_skeleton') else 'disabled'}. "
             f"Windows of {card.get('window')} tokens, overlap {card.get('overlap')}.", "",
             f"Labels (BIO): {', '.join(card.get('labels', []))}.", "",
             "## Training", "",
             f"- data: {', '.join(tr.get('data', []))}" + (" (all notes)" if tr.get("all_data") else ""),
             f"- dev: {', '.join(tr.get('dev', [])) or ('PhysioNet dev split (deid_engine.splits)' if not tr.get('all_data') else 'none (all data, a fixed number of epochs; dev figures below come from a train-only twin when the notes say so)')}",
             f"- documents: {tr.get('documents')}, augmented examples: {tr.get('augmented_examples')} "
             f"(surrogate swapping, case variants" + (", clinical-visit-notes injection" if tr.get("visit_notes") else "")
             + (" with the conversational recipe 2: wider silver labels, cue-based injection into real dialogue, "
                "speech-style variants, synthetic exchanges" if tr.get("visit_notes") and tr.get("visit_recipe", 1) >= 2
                else "") + ")",
             *([f"- inline-marked texts (`--inline`, the invented English probe set's format, docs/probe.md): "
                f"{tr.get('inline_documents')} texts from {', '.join(tr.get('inline', []))}"
                + (f", excluding {', '.join(tr.get('inline_exclude', []))}" if tr.get("inline_exclude") else "")
                + "; labels mapped onto the tag set, labels it lacks left free (partial-label likelihood)"
                + (f"; extra labels {', '.join(tr['extra_labels'])} (their unmarked rule spans in corpus notes left free)"
                   if tr.get("extra_labels") else "")]
              if tr.get("inline") else []),
             f"- seed {tr.get('seed')}, epochs run {tr.get('epochs_run')}, "
             + (f"weights averaged from epoch {tr['config']['average_from']} on (SWA), "
                if (tr.get("config") or {}).get("average_from") else f"best epoch {tr.get('best_epoch')}, ")
             + f"{tr.get('seconds')} s",
             f"- command: `{tr.get('command')}`",
             "- data licences: " + "; ".join(f"{k}: {v}" for k, v in LICENCES.items() if k != "train"), ""]
    dm = card.get("dev_metrics")
    if dm:
        t = dm["token"]
        es = dm["entity_strict_labeled"]
        lines += ["## Dev metrics (tagger alone)", "",
                  f"- binary token: P {t['precision']:.4f}  R {t['recall']:.4f}  F1 {t['f1']:.4f}  F2 {t['f2']:.4f}",
                  f"- strict entity (labels): P {es['precision']:.4f}  R {es['recall']:.4f}  F1 {es['f1']:.4f}", "",
                  "| category | token recall | tokens |", "|---|---|---|"]
        for k, v in dm["label_token_recall"].items():
            lines.append(f"| {k} | {v['recall']:.4f} | {v['tokens']} |")
        lines.append("")
    if card.get("notes"):
        lines += ["## Notes", "", card["notes"], ""]
    lines += ["## Limitations", "",
              "- Trained on small corpora; names, places and dates in unfamiliar layouts can be missed: "
              "always run it with the rule detectors (preset `default`) and review.",
              "- Labels are limited to the training corpus's label set; identifier numbers (MRN, SSN, e-mail ...) "
              "in English are left to the pattern detectors.",
              "- Confidence is the mean CRF marginal of the span's tokens, not a calibrated probability.", ""]
    if extra:
        lines += [extra, ""]
    p = folder / "MODEL_CARD.md"
    p.write_text("\n".join(lines), encoding="utf-8")
    return p
