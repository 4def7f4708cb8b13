"""Small dialogs: settings, and the label picker (categories and subtypes)."""

from __future__ import annotations

from PySide6.QtGui import QAction, QColor, QIcon, QPixmap
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel,
                               QMenu, QWidget)

from deid_engine.config import Settings, updated
from deid_engine.taxonomy import CATEGORIES, colour_of, description_of

OPERATORS = ("surrogate", "tag", "placeholder", "mask", "liu")
UNREVIEWED = (("redact", "Redact them with the model's predictions"), ("skip", "Skip files not marked reviewed"))


def swatch(label: str, size: int = 12) -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(QColor(colour_of(label)))
    return QIcon(pm)


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self._settings = settings
        form = QFormLayout(self)
        self.threshold = QDoubleSpinBox()
        self.threshold.setRange(0.0, 1.0)
        self.threshold.setSingleStep(0.05)
        self.threshold.setDecimals(2)
        self.threshold.setValue(settings.suggestion_threshold)
        self.threshold.setToolTip("Predictions below this confidence are shown as suggestions (pale, dashed).")
        form.addRow("Suggestion threshold", self.threshold)
        self.lang = QComboBox()
        for code, name in (("en", "English"), ("es", "Spanish")):
            self.lang.addItem(name, code)
        self.lang.setCurrentIndex(max(0, self.lang.findData(settings.lang)))
        form.addRow("Language of the notes", self.lang)
        self.operator = QComboBox()
        for op in OPERATORS:
            self.operator.addItem(op, op)
        self.operator.setCurrentIndex(max(0, self.operator.findData(settings.operator)))
        self.operator.setToolTip("How exported PHI is replaced (surrogate values, [TAG], placeholder, mask ...).")
        form.addRow("Redaction operator", self.operator)
        self.unreviewed = QComboBox()
        for code, name in UNREVIEWED:
            self.unreviewed.addItem(name, code)
        self.unreviewed.setCurrentIndex(max(0, self.unreviewed.findData(settings.unreviewed)))
        form.addRow("Unreviewed predictions", self.unreviewed)
        self.ages = QComboBox()
        for code, name in (("all", "Every age is PHI"), ("over89", "Only ages over 89 (HIPAA Safe Harbor)")):
            self.ages.addItem(name, code)
        self.ages.setCurrentIndex(max(0, self.ages.findData(settings.ages)))
        self.ages.setToolTip("Safe Harbor lets ages under 90 stay in de-identified data; stricter policies "
                             "(GDPR, many IRBs) treat every age as an identifier. Applies to new tagging.")
        form.addRow("Ages", self.ages)
        self.places = QComboBox()
        for code, name in (("all", "Every place is PHI"),
                           ("safe_harbor", "Keep US states and countries (HIPAA Safe Harbor)")):
            self.places.addItem(name, code)
        self.places.setCurrentIndex(max(0, self.places.findData(settings.places)))
        self.places.setToolTip("Safe Harbor lists only places smaller than a state; a state or country named on "
                               "its own may stay. Cities, streets, hospitals are always PHI. Applies to new tagging.")
        form.addRow("Places", self.places)
        self.professions = QComboBox()
        for code, name in (("all", "Every occupation is PHI"),
                           ("safe_harbor", "Keep occupations (HIPAA Safe Harbor)")):
            self.professions.addItem(name, code)
        self.professions.setCurrentIndex(max(0, self.professions.findData(settings.professions)))
        self.professions.setToolTip("Safe Harbor's 18 identifiers do not include occupations, and occupational "
                                    "history (exposures) is often kept for research; the i2b2 guideline treats "
                                    "every occupation as PHI. Occupations you added or accepted are always "
                                    "redacted. Applies to new tagging.")
        form.addRow("Professions", self.professions)
        form.addRow(QLabel("Settings are saved in your user data folder."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def result_settings(self) -> Settings:
        return updated(self._settings, suggestion_threshold=round(self.threshold.value(), 2),
                       lang=self.lang.currentData(), operator=self.operator.currentData(),
                       unreviewed=self.unreviewed.currentData(), ages=self.ages.currentData(),
                       places=self.places.currentData(), professions=self.professions.currentData())


def label_menu(parent: QWidget, title: str = "Label") -> QMenu:
    """A menu of the 8 categories (mnemonic 1-8) with their subtypes; action data is the label."""
    menu = QMenu(title, parent)
    for n, (name, cat) in enumerate(CATEGORIES.items(), 1):
        if cat.subtypes:
            sub = menu.addMenu(swatch(name), f"&{n} {name}")
            a = sub.addAction(swatch(name), f"{name} (any)")
            a.setData(name)
            a.setToolTip(cat.description)
            for st in cat.subtypes:
                a = sub.addAction(swatch(st), st)
                a.setData(st)
                a.setToolTip(description_of(st))
        else:
            a = QAction(swatch(name), f"&{n} {name}", menu)
            a.setData(name)
            a.setToolTip(cat.description)
            menu.addAction(a)
    return menu
