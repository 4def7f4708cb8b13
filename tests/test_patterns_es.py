"""Spanish patterns (deid_engine/detect/patterns_es.py): streets, dates, years and ages
that follow MEDDOCAN's conventions; own phrasings."""

from __future__ import annotations

import pytest

from deid_engine.detect.patterns import PatternDetector
from deid_engine.types import Document


@pytest.fixture(scope="module")
def es():
    d = PatternDetector("es")
    d.load()
    return d


def _found(det, text):
    return {(text[s.start:s.end], s.label) for s in det.detect(Document(text))}


MUST = [
    ("Domicilio en la Carrera 7 # 12-45 de Medellín.", "Carrera 7 # 12-45", "STREET"),
    ("Consulta en Calle 100 n.º 15-20, Bogotá.", "Calle 100 n.º 15-20", "STREET"),
    ("Vive en la calle Cervantes, 14, 3º izda, de Toledo.", "calle Cervantes, 14, 3º izda", "STREET"),
    ("Avda. de la Paz 33, 28001 Madrid", "Avda. de la Paz 33", "STREET"),
    ("Intervenido en Noviembre 2018 de una hernia.", "Noviembre 2018", "DATE"),
    ("Revisado en octubre de 2020 sin cambios.", "octubre de 2020", "DATE"),
    ("Sin recaídas desde el 2014 hasta la fecha.", "2014", "DATE"),
    ("Edad: 67\nSexo: Mujer", "67", "AGE"),
    ("Paciente de 7 meses de edad con fiebre.", "7 meses", "AGE"),
    ("Colirio (Xalatan®, Pfizer) cada noche.", "Pfizer", "ORGANIZATION"),
    ("Lente intraocular (Acrysof®, Alcon Cusí, Barcelona, España).", "Alcon Cusí", "ORGANIZATION"),
    ("Malla (Prolene®, Johnson & Johnson) sin tensión.", "Johnson & Johnson", "ORGANIZATION"),
    ("Acude acompañada de su hija mayor a la consulta.", "hija mayor", "RELATIVE"),
    ("Abuelo materno con cardiopatía isquémica.", "Abuelo materno", "RELATIVE"),
    ("Se explicó el pronóstico a la familia y aceptaron.", "familia", "RELATIVE"),
    ("Se estudió a sendos progenitores sin hallazgos.", "progenitores", "RELATIVE"),
    ("Según relatan sus familiares, no tomaba la medicación.", "familiares", "RELATIVE"),
    ("Calle Mayor 12, 2º dcha 28013 Madrid", "28013", "ZIP"),
    ("Avda. del Puerto s/n 46011 Valencia", "46011", "ZIP"),
    ("Remitido por: Dr.Tomás Ferrer Vidal Servicio de Cardiología", "Tomás Ferrer Vidal", "DOCTOR"),
    ("Médico: Dra. Elena Soto Ruiz NºCol: 28 28 11111.", "Elena Soto Ruiz", "DOCTOR"),
    ("El PSA se normalizó en Octubre 09. Después recayó.", "Octubre 09", "DATE"),  # month + two-digit year
    ("Reintervenido en marzo de 97 por recidiva.", "marzo de 97", "DATE"),
    ("Durante la exploración el niño se mostró irritable.", "niño", "OTHER"),  # the patient's sex
    ("Acude a consulta una mujer con disnea.", "mujer", "OTHER"),
]
MUST_NOT = [
    ("Se mantuvo la vía IV durante 48 horas.", "STREET"),  # route of administration
    ("Infección de vías urinarias. Tras 24 horas mejoró.", "STREET"),  # prose across a sentence end
    ("Suero calentado a 37 ºC. Infundimos un litro desde 30 cm de altura.", "STREET"),
    ("Profilaxis mediante PL. Tras dos ciclos durante 6 meses remitió.", "STREET"),
    ("Hepatitis C. Medicado con 80 mg al día.", "STREET"),
    ("Practica carrera 4 veces por semana.", "STREET"),  # a unit after the number
    ("Comenta un viaje a su país en 2011 sin incidencias.", "STREET"),  # "viaje" is not "vía"
    ("Plaquetas alrededor de 25000 por microlitro.", "DATE"),  # part of a longer number
    ("Presión sistólica de 45 mmHg (percentil 5 para su edad: 41 mmHg).", "AGE"),
    ("Revisamos al paciente 4 meses después sin recidiva.", "AGE"),  # an interval
    ("Falleciendo la paciente 2 semanas más tarde.", "AGE"),
    ("Gotas (Timolol 0,5%®, Sevilla, España) dos veces al día.", "ORGANIZATION"),  # a town, not a maker
    ("Placa de titanio (Synthes®, Zúrich, Suiza).", "ORGANIZATION"),
    ("Tratado con Adiro®, Sintrom® y Seguril® en casa.", "ORGANIZATION"),  # a list of brands
    ("Dieta (Aminoven®, tabla III) sin incidencias.", "ORGANIZATION"),
    ("Antecedentes familiares sin interés.", "RELATIVE"),  # an adjective
    ("Controlada por su médico de familia.", "RELATIVE"),
    ("Se diluyó la solución madre al 10%.", "RELATIVE"),  # no determiner before it
    ("Las células hijas mostraban atipia.", "RELATIVE"),
    ("Se recomendó cribado a los familiares de primer grado.", "RELATIVE"),  # relatives in general
    ("Beta-2 microglobulina 31250 sin cambios.", "ZIP"),  # a lab value, not a postal code
    ("Prótesis (modelo 41020 Allergan) bien posicionada.", "ZIP"),
    ("Ensayo EORTC 22033 (Bruselas) en curso.", "ZIP"),
    ("Leucocitos 15230 Neutrófilos 80% Hemoglobina 11.", "ZIP"),
    ("Médico: Medicina Interna  NºCol: 28 28 12345.", "DOCTOR"),  # a service in the doctor field
    ("Remitido por: Dr.", "DOCTOR"),
]
MUST_NOT_SPAN = [
    ("Vino acompañado de su mujer y de su hijo.", "mujer"),  # a spouse
    ("Tiene un hijo varón sano.", "varón"),  # the qualifier of a relative
    ("Cariotipo femenino normal 46 XX.", "femenino"),
    ("En mayo 05.5 mg de dexametasona.", "mayo 05.5"),  # a dose after the month
    ("Citado en junio 15 días después del alta.", "junio 15"),  # a duration
]


@pytest.mark.parametrize("text,span", MUST_NOT_SPAN)
def test_es_must_not_span(es, text, span):
    assert span not in {s for s, _ in _found(es, text)}


@pytest.mark.parametrize("text,span,label", MUST)
def test_es_must_match(es, text, span, label):
    assert (span, label) in _found(es, text)


@pytest.mark.parametrize("text,label", MUST_NOT)
def test_es_must_not_match(es, text, label):
    assert not [s for s, lbl in _found(es, text) if lbl == label]
