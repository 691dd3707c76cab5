"""SequenceEncoder and trait chains against the engine-verified strings of vassal-format.md §4."""

from hypothesis import given, strategies as st

from toolkit.vassal.encoding import (ESC, TAB, Trait, add_piece, chain_state, chain_type, decode, encode,
                                     key, parse_add_piece, split_chain)
from toolkit.vassal.pieces import basic_piece, layer, marker, prototype, report

FRONT, BACK = "1-1_Inf_front.png", "1-1_Inf_back.png"
TWO_SIDED_TYPE = ("emb2;;128;A;Flip;128;;;128;;;;1;false;0;0;1-1_Inf_front.png,1-1_Inf_back.png;,+ (reduced);"
                  "true;Step;;;false;;1;1;true;;70,130;;;1.0;;true")


def test_encoder_escapes_only_its_delimiter_and_quotes_backslash_starts():
    assert encode(["a;b", "c,d", "", None, 3, True], ";") == "a\\;b;c,d;;;3;true"
    assert encode(["\\x"], ";") == "'\\x'"
    assert encode(["'q'"], ";") == "''q''"
    assert decode("a\\;b;c,d;;;3;true", ";") == ["a;b", "c,d", "", "", "3", "true"]
    assert decode("", ";") == [""]
    assert decode("piece;;;;", ";") == ["piece", "", "", "", ""]


@given(st.lists(st.text(alphabet="ab;,/\t' \\", max_size=6), min_size=1, max_size=5))
def test_encode_decode_round_trip(tokens):
    # VASSAL's own ambiguity: a token ending in a backslash swallows the next delimiter
    tokens = [t for t in tokens if not t.endswith("\\")] or ["x"]
    assert decode(encode(tokens, ";"), ";") == tokens


def test_basic_piece_exact_string():
    piece = basic_piece(FRONT, "1st Infantry")
    assert add_piece(None, [piece]) == "+/null/piece;;;1-1_Inf_front.png;1st Infantry/null;0;0;;0"


def test_slash_in_a_name_is_escaped_at_the_command_level():
    text = add_piece(None, [basic_piece("a.png", "De Salles / I Corps")])
    assert "De Salles \\/ I Corps" in text
    _, type_text, _ = parse_add_piece(text)
    assert type_text == "piece;;;a.png;De Salles / I Corps"


def test_two_sided_counter_exact_string():
    traits = [layer([FRONT, BACK], ["", "+ (reduced)"]), basic_piece(FRONT, "1st Infantry")]
    assert traits[0].type == TWO_SIDED_TYPE
    assert add_piece(None, traits) == f"+/null/{TWO_SIDED_TYPE}{TAB}piece;;;{FRONT};1st Infantry/1{TAB}null;0;0;;0"


def test_three_levels_deep_backslashes():
    traits = [prototype("Infantry"), Trait("mark;Side,Nationality", "Allied,German"),
              report([key("F", 130)], "$location$: $newPieceName$ flipped"),
              layer([FRONT, BACK], ["", "+ (reduced)"]), basic_piece(FRONT, "1st Infantry")]
    expected = ("+/null/prototype;Infantry\tmark;Side,Nationality\\\treport;70\\,130;$location$: $newPieceName$ "
                "flipped;;;;false\\\\\t" + TWO_SIDED_TYPE + "\\\\\\\tpiece;;;1-1_Inf_front.png;1st Infantry/"
                "\tAllied,German\\\t-1\\\\\t1\\\\\\\tnull;0;0;;0")
    assert add_piece(None, traits) == expected
    _, type_text, state = parse_add_piece(expected)
    assert split_chain(type_text, state) == traits


def test_marker_values_with_commas_survive():
    trait = marker({"Name": "Smith, J.", "Attack": 4})
    assert decode(trait.state, ",") == ["Smith, J.", "4"]
    chain = [trait, basic_piece("x.png", "x")]
    assert split_chain(chain_type(chain), chain_state(chain)) == chain


def test_named_keys_and_esc_constant():
    assert key("F", 130) == "70,130"
    assert key(57344, 0, "Battleworn") == "57344,0,Battleworn"
    assert ESC == "\x1b"


# -- the linear chain splitter against a literal reading of VASSAL's decoder ---------------

def _literal_split(text: str) -> list[str]:
    """Decorator.getInner's decoding, level by level: split at the first TAB no backslash
    precedes, unescape both halves once (drop one backslash before each TAB, unquote)."""
    def unescape(value: str) -> str:
        value = value.replace("\\\t", "\t")
        return value[1:-1] if len(value) > 1 and value[0] == "'" and value[-1] == "'" else value

    out: list[str] = []
    rest: str | None = text
    while rest is not None:
        i = rest.find(TAB)
        while i > 0 and rest[i - 1] == "\\":
            i = rest.find(TAB, i + 1)
        if i < 0:
            out.append(unescape(rest))
            rest = None
        else:
            out.append(unescape(rest[:i]))
            rest = unescape(rest[i + 1:])
    return out


_PARTS = st.text(alphabet="ab;\t'\\", max_size=7)


@given(st.lists(_PARTS, min_size=1, max_size=6))
def test_chain_splitting_matches_the_literal_decoder_on_encoded_chains(parts):
    traits = [Trait(p, p) for p in parts]
    assert split_chain(chain_type(traits), chain_state(traits)) == [
        Trait(t, s) for t, s in zip(_literal_split(chain_type(traits)), _literal_split(chain_state(traits)))]


@given(st.text(alphabet="ab\t'\\", max_size=30))
def test_chain_splitting_matches_the_literal_decoder_on_any_text(text):
    # hand-written and corrupt pieces too: whatever VASSAL's decoder makes of them
    assert [t.type for t in split_chain(text, "")] == _literal_split(text)
    assert [t.state for t in split_chain(text, text)] == _literal_split(text)


def test_chain_splitting_is_linear_in_the_piece():
    # 1,500 traits: about a million characters of nested escaping, split in one pass
    traits = [Trait(f"mark;K{i}", str(i)) for i in range(1500)] + [Trait("piece;;;a.png;A", "null;0;0;p;0")]
    assert split_chain(chain_type(traits), chain_state(traits)) == traits


@given(st.text(alphabet="ab;\\'", max_size=30))
def test_decode_matches_a_literal_split_on_unescaped_delimiters(text):
    import re
    literal = [t.replace("\\;", ";") for t in re.split(r"(?<!\\);", text)]
    assert decode(text, ";") == [t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t for t in literal]
