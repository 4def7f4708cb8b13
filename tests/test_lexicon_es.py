"""Spanish gazetteer vetoes (deid_engine/detect/lexicon_es.py) through the lexicon detector."""

from __future__ import annotations

import pytest

from deid_engine.detect.lexicon import LexiconDetector
from deid_engine.detect.lexicon_es import acronym, cased, spanish_vetoes, veto_reason
from deid_engine.types import Document, Span

# cased Spanish prose around each probe sentence (the vetoes need capitals to mean something)
PRE = "Mujer de 54 años sin antecedentes de interés. Acude por dolor abdominal. "
POST = " Se pautó tratamiento y evolucionó bien. Fue dada de alta."


@pytest.fixture(scope="module")
def lex():
    d = LexiconDetector("es")
    d.load()
    return d


def _found(lex, sentence: str, word: str) -> bool:
    text = PRE + sentence + POST
    return any(word in text[s.start:s.end] for s in lex.detect(Document(text)))


# (sentence, word that is NOT PHI there)
MUST_NOT = [
    ("Se optó por llevar a cabo una biopsia escisional.", "cabo"),  # lower case
    ("Presentaba un hematoma en el muslo izquierdo tras la caída.", "izquierdo"),
    ("El cultivo confirmó el bacilo de Koch en el esputo.", "Koch"),  # eponym slot
    ("Se describió un tumor renal grado II de Fuhrman sin invasión.", "Fuhrman"),
    ("Se asoció una anemia hemolítica autoinmune de Evans al cuadro.", "Evans"),
    ("Se realizó una derivación tipo Bricker sin incidencias.", "Bricker"),  # classifier
    ("El glaucoma era de grado III según Schaffer en ambos ojos.", "Schaffer"),
    ("Reposo durante la mañana. Diez horas después mejoró.", "Diez"),  # sentence start
    ("La ecografía mostró hepatomegalia. Porta permeable sin trombosis.", "Porta"),
    ("Se determinó la vitamina D y PTH con valores normales.", "PTH"),  # acronym
    ("No tiene hermano HLA compatible para el trasplante.", "HLA"),
    ("La sonda resultó útil.\nDiez minutos después cedió el dolor.", "Diez"),  # a sentence ends at a line end
    ("Se midió la vena en la ecografía. Porta de 11 mm sin trombos.", "Porta"),
    ("El cultivo fue positivo para Candida parapsilosis resistente.", "Candida"),  # genus + species
    ("Se aisló Serratia spp. en la orina.", "Serratia"),
    ("Durante el ingreso fue valorado por Neumología sin cambios.", "Neumología"),  # a service
    ("Lo valoró Cirugía Plástica y Reconstructiva al día siguiente.", "Plástica"),
    ("Acudió a su Centro de Salud por tos.", "Centro"),  # a possessive before a town word
]
# (sentence, name that IS PHI there)
MUST = [
    ("Las dos abuelas de Marta tuvieron cáncer de colon.", "Marta"),  # person noun before de
    ("Antes de la consulta Rodrigo no había tenido fiebre.", "Rodrigo"),  # mid-sentence bare name
    ("Le atendió la Dra. Lucía Serrano Gil en urgencias.", "Serrano"),  # title cue
    ("El informe lo firma Ana Ortiz de Barrón en la unidad.", "Barrón"),  # capital before de
    ("Se informó a la familia paterna de Carmela del resultado.", "Carmela"),
    ("Durante la visita, Rosario refiere mejoría del dolor.", "Rosario"),  # not a species epithet
    ("Se trasladó al Centro de Salud de Almería para seguimiento.", "Almería"),
]


@pytest.mark.parametrize("sentence,word", MUST_NOT)
def test_not_phi_dropped(lex, sentence, word):
    assert not _found(lex, sentence, word)


@pytest.mark.parametrize("sentence,word", MUST)
def test_names_kept(lex, sentence, word):
    assert _found(lex, sentence, word)


def test_kinship_qualifier_kept():
    text = PRE + "Su tío paterno falleció joven por una cardiopatía." + POST
    a = text.index("paterno")
    s = Span(a, a + len("paterno"), "RELATIVE", "lexicon:name", 0.9)
    assert veto_reason(text, s) == ""
    sana = Span(a, a + 3, "RELATIVE", "lexicon:name", 0.9)  # any other lower-case word goes
    assert veto_reason(text[:a] + "san" + text[a + 3:], sana) == "lower case"


def test_uncased_text_untouched():
    text = "paciente remitido. llevar a cabo biopsia. hermano hla compatible."
    s = Span(text.index("cabo"), text.index("cabo") + 4, "PATIENT", "lexicon:name", 0.45)
    assert not cased(text)
    assert spanish_vetoes(text, [s]) == [s]


def test_other_labels_untouched():
    text = PRE + "Vive en la calle de la Paz número 5." + POST
    s = Span(text.index("calle"), text.index("calle") + 5, "DATE", "pattern:x", 0.9)
    assert veto_reason(text, s) == ""


@pytest.mark.parametrize("w,exp", [("HLA", True), ("IgG", True), ("RM", True), ("XII", False), ("IV", False),
                                   ("Marta", False), ("McLean", False), ("DominguezCorreo", False)])
def test_acronym(w, exp):
    assert acronym(w) is exp


@pytest.mark.parametrize("surface,exp", [("Oftalmología", True), ("Cirugía Plástica y Reconstructiva", True),
                                         ("Sección", True), ("Medicina Interna", True), ("Rosa Medina", False),
                                         ("Luis Cirujano", False), ("Dolores", False)])
def test_service_name(surface, exp):
    from deid_engine.detect.lexicon_es import service_name

    assert service_name(surface) is exp


def test_bare_surname_only_hit_is_marked(lex):
    from deid_engine.detect.lexicon_es import SURNAME_ONLY

    text = PRE + "Se practicó una campimetría Herrera sin defectos. Más tarde Lucía acudió sola." + POST
    got = {text[s.start:s.end]: s.source for s in lex.detect(Document(text))}
    assert got.get("Herrera") == SURNAME_ONLY  # a surname-list word alone: weak
    assert got.get("Lucía") == "lexicon:name"  # a listed first name stays a name


def test_provinces_are_territorio_city(lex):
    text = PRE + "Vive desde hace años en Cantabria con su pareja." + POST
    got = {text[s.start:s.end]: s.label for s in lex.detect(Document(text))}
    assert got.get("Cantabria") == "CITY"
