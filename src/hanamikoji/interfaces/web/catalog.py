"""The web interface's sentences in English, Spanish and French, and the catalog a page
loads for its language.

Game terms (actions, items, charm, markers) are not here: they come from
:mod:`hanamikoji.notation.names` in the edition's words, and the sentences the terminal
interface already has (outcomes, reveal, variants) come from
:mod:`hanamikoji.interfaces.messages`. ``en-2018`` reads the English sentences with the
2018 edition's terms.

>>> text("err_used", "fr", action="Dépôt")
'Vous avez déjà joué Dépôt dans cette manche.'
>>> client_catalog("es")["actions"]
['Secreto', 'Renuncia', 'Regalo', 'Competición']
"""

from __future__ import annotations

from typing import Any

from hanamikoji.core.cards import GEISHAS
from hanamikoji.core.moves import ACTIONS
from hanamikoji.interfaces.messages import MESSAGES, ui_lang
from hanamikoji.notation.names import LANGUAGES, Lang, action_name, item_name, term

__all__ = ["LANGUAGE_NAMES", "UI", "client_catalog", "text"]

LANGUAGE_NAMES: dict[Lang, str] = {
    "en": "English (2016 edition)",
    "en-2018": "English (2018 edition)",
    "es": "Español",
    "fr": "Français",
}

UI: dict[str, tuple[str, str, str]] = {
    # key: (English, Spanish, French)
    # -- refusals (sent by the server)
    "err_not_json": (
        "The message is not JSON.",
        "El mensaje no es JSON.",
        "Le message n'est pas du JSON.",
    ),
    "err_not_object": (
        "The message must be a JSON object.",
        "El mensaje debe ser un objeto JSON.",
        "Le message doit être un objet JSON.",
    ),
    "err_too_long": (
        "The message is too long (at most {limit} characters).",
        "El mensaje es demasiado largo (como mucho {limit} caracteres).",
        "Le message est trop long ({limit} caractères au plus).",
    ),
    "err_unknown_type": (
        "Unknown kind of message.",
        "Tipo de mensaje desconocido.",
        "Type de message inconnu.",
    ),
    "err_bad_field": (
        "The field '{field}' is missing or not valid.",
        "El campo '{field}' falta o no es válido.",
        "Le champ « {field} » manque ou n'est pas valide.",
    ),
    "err_content_type": (
        "The request must be sent as JSON (Content-Type: application/json).",
        "La petición debe enviarse como JSON (Content-Type: application/json).",
        "La requête doit être envoyée en JSON (Content-Type: application/json).",
    ),
    "err_rate_limited": (
        "Too many requests: try again in {seconds} s.",
        "Demasiadas peticiones: vuelve a intentarlo dentro de {seconds} s.",
        "Trop de requêtes : réessayez dans {seconds} s.",
    ),
    "err_hello_again": (
        "This connection already opens a seat; open another one for another seat.",
        "Esta conexión ya abre un asiento; abre otra para otro asiento.",
        "Cette connexion ouvre déjà une place ; ouvrez-en une autre pour une autre place.",
    ),
    "err_bad_lang": (
        "Unknown language; known: {langs}.",
        "Idioma desconocido; disponibles: {langs}.",
        "Langue inconnue ; disponibles : {langs}.",
    ),
    "err_hello_first": (
        "The page must first say which seat it opens.",
        "La página debe decir primero qué asiento abre.",
        "La page doit d'abord dire quelle place elle ouvre.",
    ),
    "err_bad_token": (
        "This link does not open a seat of this game.",
        "Este enlace no abre ningún asiento de esta partida.",
        "Ce lien n'ouvre aucune place de cette partie.",
    ),
    "err_origin": (
        "Connections from another site are not accepted.",
        "No se aceptan conexiones desde otro sitio.",
        "Les connexions depuis un autre site sont refusées.",
    ),
    "err_not_your_turn": (
        "It is not your turn.",
        "No es tu turno.",
        "Ce n'est pas à vous de jouer.",
    ),
    "err_not_a_move": (
        "'{text}' is not a decision.",
        "'{text}' no es una decisión.",
        "« {text} » n'est pas une décision.",
    ),
    "err_stale": (
        "The game has moved on since your page last heard of it; here is the current table.",
        "La partida ha avanzado desde la última actualización; aquí está la mesa actual.",
        "La partie a avancé depuis la dernière mise à jour ; voici la table actuelle.",
    ),
    "err_conflict": (
        "Another decision was recorded first; here is the current table.",
        "Otra decisión se registró antes; aquí está la mesa actual.",
        "Une autre décision a été enregistrée avant ; voici la table actuelle.",
    ),
    "err_storage": (
        "The decision could not be saved; nothing changed. Try again.",
        "No se pudo guardar la decisión; nada ha cambiado. Inténtalo de nuevo.",
        "La décision n'a pas pu être enregistrée ; rien n'a changé. Réessayez.",
    ),
    "err_not_over": (
        "Only available once the game is over.",
        "Solo disponible cuando la partida haya terminado.",
        "Disponible seulement une fois la partie terminée.",
    ),
    "err_no_game": (
        "There is no such game.",
        "No existe esa partida.",
        "Cette partie n'existe pas.",
    ),
    # -- the start page
    "tagline": (
        "The two-player card game of geishas and their favors.",
        "El juego de cartas para dos sobre geishas y sus favores.",
        "Le jeu de cartes à deux des geishas et de leurs faveurs.",
    ),
    "new_game": ("New game", "Nueva partida", "Nouvelle partie"),
    "opponent_label": ("Opponent", "Rival", "Adversaire"),
    "opponent_bot": ("A bot", "Un bot", "Un bot"),
    "opponent_friend": (
        "A friend, with a link",
        "Un amigo, con un enlace",
        "Un ami, avec un lien",
    ),
    "level_label": ("Bot level", "Nivel del bot", "Niveau du bot"),
    "level_1": ("1 · plays at random", "1 · juega al azar", "1 · joue au hasard"),
    "level_2": ("2 · greedy", "2 · codicioso", "2 · glouton"),
    "level_3": ("3 · thinks 0.2 s", "3 · piensa 0,2 s", "3 · réfléchit 0,2 s"),
    "level_4": ("4 · thinks 1 s", "4 · piensa 1 s", "4 · réfléchit 1 s"),
    "level_5": ("5 · strongest", "5 · el más fuerte", "5 · le plus fort"),
    "variant_label": ("Rules", "Reglas", "Règles"),
    "first_label": ("Who starts", "Quién empieza", "Qui commence"),
    "first_me": ("Me", "Yo", "Moi"),
    "first_opponent": ("My opponent", "Mi rival", "Mon adversaire"),
    "first_random": ("Draw at random", "Al azar", "Au hasard"),
    "lang_label": ("Language", "Idioma", "Langue"),
    "theme_label": ("Theme", "Tema", "Thème"),
    "theme_auto": ("System", "Del sistema", "Système"),
    "theme_light": ("Light", "Claro", "Clair"),
    "theme_dark": ("Dark", "Oscuro", "Sombre"),
    "start_button": ("Start the game", "Empezar la partida", "Commencer la partie"),
    "no_seat": (
        "This page needs the link of a seat. Ask the person who created the game for it,"
        " or start a new game.",
        "Esta página necesita el enlace de un asiento. Pídeselo a quien creó la partida,"
        " o empieza una nueva.",
        "Cette page a besoin du lien d'une place. Demandez-le à la personne qui a créé la"
        " partie, ou commencez-en une nouvelle.",
    ),
    # -- players and the connection
    "you": ("You", "Tú", "Vous"),
    "you_are": ("You are {player}", "Eres {player}", "Vous êtes {player}"),
    "bot_name": ("Bot (level {level})", "Bot (nivel {level})", "Bot (niveau {level})"),
    "friend_name": ("Your friend", "Tu amigo", "Votre ami"),
    "conn_online": ("Connected", "Conectado", "Connecté"),
    "conn_offline": (
        "Connection lost: reconnecting…",
        "Conexión perdida: reconectando…",
        "Connexion perdue : reconnexion…",
    ),
    "invite_title": ("Invite your opponent", "Invita a tu rival", "Invitez votre adversaire"),
    "invite_text": (
        "Send this link to the person you play with: it opens Player 2's seat. Keep your own"
        " page's address to yourself: it is your seat.",
        "Envía este enlace a la persona con quien juegas: abre el asiento del Jugador 2."
        " No compartas la dirección de tu página: es tu asiento.",
        "Envoyez ce lien à la personne avec qui vous jouez : il ouvre la place du Joueur 2."
        " Gardez l'adresse de votre page pour vous : c'est votre place.",
    ),
    "copy": ("Copy", "Copiar", "Copier"),
    "copied": ("Copied", "Copiado", "Copié"),
    "opponent_away": (
        "Your opponent's page is not open.",
        "La página de tu rival no está abierta.",
        "La page de votre adversaire n'est pas ouverte.",
    ),
    # -- the table
    "round_of": ("Round {round}", "Ronda {round}", "Manche {round}"),
    "round_of_max": (
        "Round {round} of {max}",
        "Ronda {round} de {max}",
        "Manche {round} sur {max}",
    ),
    "deck_count": ("Deck: {count}", "Mazo: {count}", "Pioche : {count}"),
    "hand_count": (
        "{count} card(s) in hand",
        "{count} carta(s) en la mano",
        "{count} carte(s) en main",
    ),
    "your_hand": ("Your hand", "Tu mano", "Votre main"),
    "your_hidden": (
        "Your face-down cards",
        "Tus cartas boca abajo",
        "Vos cartes face cachée",
    ),
    "their_hidden": (
        "Their face-down cards",
        "Sus cartas boca abajo",
        "Ses cartes face cachée",
    ),
    "drawn_card": ("just drawn", "recién robada", "piochée"),
    "geisha_label": (
        "{geisha}, {charm} {charm_term}, {item}. {favor}. You: {mine}, opponent: {theirs}.",
        "{geisha}, {charm} {charm_term}, {item}. {favor}. Tú: {mine}, rival: {theirs}.",
        "{geisha}, {charm} {charm_term}, {item}. {favor}. Vous : {mine}, adversaire : {theirs}.",
    ),
    "favor_you": ("Her favor is yours", "Su favor es tuyo", "Sa faveur est à vous"),
    "favor_them": (
        "Her favor is your opponent's",
        "Su favor es de tu rival",
        "Sa faveur est à votre adversaire",
    ),
    "favor_neutral": ("Her favor is neutral", "Su favor es neutral", "Sa faveur est neutre"),
    "favor_moved": ("moved", "ha cambiado", "déplacée"),
    "score_line": (
        "{charm} {charm_term} · {geishas} geisha(s)",
        "{charm} {charm_term} · {geishas} geisha(s)",
        "{charm} {charm_term} · {geishas} geisha(s)",
    ),
    "actions_title": ("Action markers", "Marcadores de acción", "Jetons action"),
    "action_used": ("used", "usada", "jouée"),
    "action_free": ("available", "disponible", "disponible"),
    "status_your_turn": (
        "Your turn: choose an action, then its cards.",
        "Tu turno: elige una acción y luego sus cartas.",
        "À vous : choisissez une action, puis ses cartes.",
    ),
    "status_answer_gift": (
        "{player} offers you a {action}: take one card.",
        "{player} te ofrece un {action}: toma una carta.",
        "{player} vous fait une {action} : prenez une carte.",
    ),
    "status_answer_competition": (
        "{player} offers you a {action}: take one pair.",
        "{player} te ofrece una {action}: toma una pareja.",
        "{player} vous propose un {action} : prenez une paire.",
    ),
    "status_waiting": (
        "Waiting for {player}…",
        "Esperando a {player}…",
        "En attente de {player}…",
    ),
    "status_waiting_answer": (
        "Waiting for {player} to answer your {action}…",
        "Esperando a que {player} responda a tu {action}…",
        "En attente de la réponse de {player} à votre {action}…",
    ),
    "status_over": ("The game is over.", "La partida ha terminado.", "La partie est terminée."),
    "choose_action": (
        "Choose an action marker.",
        "Elige un marcador de acción.",
        "Choisissez un jeton action.",
    ),
    "choose_cards": (
        "{action}: choose {count} card(s) from your hand ({chosen} chosen).",
        "{action}: elige {count} carta(s) de tu mano ({chosen} elegidas).",
        "{action} : choisissez {count} carte(s) de votre main ({chosen} choisie(s)).",
    ),
    "choose_split": (
        "{action}: how are the two pairs made?",
        "{action}: ¿cómo se forman las dos parejas?",
        "{action} : comment former les deux paires ?",
    ),
    "ready_to_confirm": (
        "Press Confirm (Enter) to play: {move}",
        "Pulsa Confirmar (Intro) para jugar: {move}",
        "Appuyez sur Valider (Entrée) pour jouer : {move}",
    ),
    "confirm": ("Confirm", "Confirmar", "Valider"),
    "clear": ("Clear", "Borrar", "Effacer"),
    "pair_n": ("Pair {n}", "Pareja {n}", "Paire {n}"),
    "offer_title": ("On offer", "En oferta", "Proposé"),
    "take": ("Take", "Tomar", "Prendre"),
    "keys_help": (
        "Keys: S T G C choose an action, 1-7 choose cards, Enter confirms, Esc clears.",
        "Teclas: S T G C eligen una acción, 1-7 eligen cartas, Intro confirma, Esc borra.",
        "Touches : S T G C choisissent une action, 1-7 des cartes, Entrée valide, Échap efface.",
    ),
    "tracker_title": ("Card tracker", "Cartas por ver", "Cartes à voir"),
    "tracker_hint": (
        "Cards you have not seen this round: in your opponent's hand, Secret or Trade-off,"
        " in the deck, or the removed card.",
        "Cartas que no has visto esta ronda: en la mano, el Secreto o la Renuncia de tu rival,"
        " en el mazo, o la carta retirada.",
        "Cartes que vous n'avez pas vues dans cette manche : dans la main, le Secret ou le"
        " Dépôt de votre adversaire, dans la pioche, ou la carte écartée.",
    ),
    "tracker_toggle": ("Show", "Mostrar", "Afficher"),
    "log_move": ("{player}: {move}", "{player}: {move}", "{player} : {move}"),
    "opponent": ("Opponent", "Rival", "Adversaire"),
    # -- scoring and the end
    "summary_you": ("You", "Tú", "Vous"),
    "summary_them": ("Opponent", "Rival", "Adversaire"),
    "summary_marker": ("Favor", "Favor", "Faveur"),
    "summary_totals": (
        "You: {mine}. Opponent: {theirs}.",
        "Tú: {mine}. Rival: {theirs}.",
        "Vous : {mine}. Adversaire : {theirs}.",
    ),
    "continue": ("Continue", "Continuar", "Continuer"),
    "you_win": ("You win!", "¡Has ganado!", "Vous avez gagné !"),
    "you_lose": ("You lose.", "Has perdido.", "Vous avez perdu."),
    "nobody_wins": ("No winner.", "Sin ganador.", "Pas de vainqueur."),
    "shared_win": ("A shared win.", "Victoria compartida.", "Victoire partagée."),
    "reveal_secret": ("Secret", "Secreto", "Secret"),
    "replay": ("Replay", "Repetición", "Revoir la partie"),
    "rematch": ("Rematch", "Revancha", "Revanche"),
    "rematch_ready": (
        "Your opponent has started a rematch: press Rematch to join it.",
        "Tu rival ha empezado la revancha: pulsa Revancha para unirte.",
        "Votre adversaire a lancé la revanche : appuyez sur Revanche pour la rejoindre.",
    ),
    "download_text": (
        "Download the record (text)",
        "Descargar el registro (texto)",
        "Télécharger la partie (texte)",
    ),
    "download_json": (
        "Download the record (JSON)",
        "Descargar el registro (JSON)",
        "Télécharger la partie (JSON)",
    ),
    "replay_title": ("Replay", "Repetición", "Revoir la partie"),
    "replay_position": (
        "Decision {ply} of {total}",
        "Decisión {ply} de {total}",
        "Décision {ply} sur {total}",
    ),
    "replay_deal": (
        "Round {round}: the deal",
        "Ronda {round}: el reparto",
        "Manche {round} : la donne",
    ),
    "replay_first": ("First", "Primera", "Première"),
    "replay_prev": ("Previous", "Anterior", "Précédente"),
    "replay_next": ("Next", "Siguiente", "Suivante"),
    "replay_last": ("Last", "Última", "Dernière"),
    "replay_close": ("Back to the table", "Volver a la mesa", "Retour à la table"),
    "replay_removed": ("Removed card", "Carta retirada", "Carte écartée"),
    "replay_deck": ("Deck, top first", "Mazo, de arriba abajo", "Pioche, du haut"),
    "replay_hand": ("{player}'s hand", "Mano de {player}", "Main de {player}"),
    "replay_scored": (
        "Round {round} scored",
        "Ronda {round} puntuada",
        "Manche {round} décomptée",
    ),
    "close": ("Close", "Cerrar", "Fermer"),
    # -- the analysis
    "analyse": ("Analyse", "Analizar", "Analyser"),
    "analysis_title": ("Analysis", "Análisis", "Analyse"),
    "analysis_progress": (
        "Analysing the game: {done} of {total} decisions",
        "Analizando la partida: {done} de {total} decisiones",
        "Analyse de la partie : {done} décisions sur {total}",
    ),
    "analysis_failed": (
        "The analysis did not finish; try again.",
        "El análisis no terminó; inténtalo de nuevo.",
        "L'analyse n'a pas abouti ; réessayez.",
    ),
    "analysis_reading": (
        "Each figure is the chance that the player who decided wins the match, estimated"
        " from that player's view of the cards.",
        "Cada cifra es la probabilidad de que el jugador que decidió gane la partida,"
        " estimada desde lo que ese jugador veía de las cartas.",
        "Chaque chiffre est la chance que le joueur qui a décidé gagne la partie, estimée"
        " d'après ce que ce joueur voyait des cartes.",
    ),
    "analysis_graph": (
        "Win chance of the player who decided, decision by decision",
        "Probabilidad de ganar del jugador que decidió, decisión a decisión",
        "Chance de gagner du joueur qui a décidé, décision par décision",
    ),
    "analysis_axis_x": ("Decision", "Decisión", "Décision"),
    "analysis_axis_y": ("Win chance", "Prob. de ganar", "Chance de gagner"),
    "analysis_decision": (
        "R{round} T{turn} {player}: {move}",
        "R{round} T{turn} {player}: {move}",
        "M{round} T{turn} {player} : {move}",
    ),
    "analysis_chance": ("{chance}%", "{chance} %", "{chance} %"),
    "analysis_cost": ("{label} (−{cost}%)", "{label} (−{cost} %)", "{label} (−{cost} %)"),
    "analysis_best": ("best {move}", "mejor {move}", "meilleur {move}"),
    "analysis_forced": ("forced", "forzada", "forcée"),
    "analysis_good": ("best or close", "la mejor o casi", "la meilleure ou presque"),
    "label_inaccuracy": ("inaccuracy", "imprecisión", "imprécision"),
    "label_mistake": ("mistake", "error", "erreur"),
    "label_blunder": ("blunder", "error grave", "gaffe"),
    "analysis_summary": (
        "{player}: {decisions} with a choice, mean cost {cost}%; {inaccuracies}, {mistakes},"
        " {blunders}",
        "{player}: {decisions} con elección, coste medio {cost} %; {inaccuracies}, {mistakes},"
        " {blunders}",
        "{player} : {decisions} avec un choix, coût moyen {cost} % ; {inaccuracies},"
        " {mistakes}, {blunders}",
    ),
    # Counted words, one sentence per plural category of the language (the page picks
    # with the browser's Intl.PluralRules: French says "0 gaffe", English "0 blunders").
    "n_decisions_one": ("{n} decision", "{n} decisión", "{n} décision"),
    "n_decisions_other": ("{n} decisions", "{n} decisiones", "{n} décisions"),
    "n_inaccuracies_one": ("{n} inaccuracy", "{n} imprecisión", "{n} imprécision"),
    "n_inaccuracies_other": ("{n} inaccuracies", "{n} imprecisiones", "{n} imprécisions"),
    "n_mistakes_one": ("{n} mistake", "{n} error", "{n} erreur"),
    "n_mistakes_other": ("{n} mistakes", "{n} errores", "{n} erreurs"),
    "n_blunders_one": ("{n} blunder", "{n} error grave", "{n} gaffe"),
    "n_blunders_other": ("{n} blunders", "{n} errores graves", "{n} gaffes"),
    "analysis_view": (
        "Decision {ply}, from {player}'s side",
        "Decisión {ply}, desde el lado de {player}",
        "Décision {ply}, du côté de {player}",
    ),
    "analysis_played": ("Played", "Jugada", "Jouée"),
    "analysis_best_move": ("Best", "Mejor", "Meilleure"),
    "analysis_best_cards": (
        "Cards of the best decision",
        "Cartas de la mejor decisión",
        "Cartes de la meilleure décision",
    ),
}
"""Each sentence of the web interface in English, Spanish and French; fields in braces."""

_REUSED_MESSAGES = (
    "player",
    "col_geisha",
    "log_title",
    "log_empty",
    "round_scored",
    "secrets_revealed",
    "outcome_charm",
    "outcome_geishas",
    "outcome_most_geishas",
    "outcome_most_charm",
    "outcome_shared_win",
    "outcome_no_winner",
    "outcome_round_cap",
    "game_over",
    "reveal_title",
    "reveal_round",
    "reveal_dealt",
    "reveal_drawn",
    "removed_card",
    "deck_order",
    "rounds_played",
    "variant_classic",
    "variant_three_rounds",
    "variant_french",
)
"""Sentences of the terminal interface the page uses as they are."""

_INDEX = {"en": 0, "es": 1, "fr": 2}


def text(key: str, lang: Lang, **fields: object) -> str:
    """The sentence ``key`` in ``lang`` with its fields filled in."""
    sentences = UI.get(key) or MESSAGES[key]
    return sentences[_INDEX[ui_lang(lang)]].format(**fields)


def client_catalog(lang: Lang) -> dict[str, Any]:
    """Everything a page needs to speak ``lang``: sentences (with ``{field}`` holes) and
    the edition's terms."""
    index = _INDEX[ui_lang(lang)]
    sentences = {key: values[index] for key, values in UI.items()}
    sentences.update({key: MESSAGES[key][index] for key in _REUSED_MESSAGES})
    return {
        "lang": lang,
        "languages": {code: LANGUAGE_NAMES[code] for code in LANGUAGES},
        "ui": sentences,
        "actions": [action_name(kind, lang) for kind in ACTIONS],
        "items": [item_name(geisha.index, lang) for geisha in GEISHAS],
        "geishas": [geisha.name for geisha in GEISHAS],
        "charms": [geisha.charm for geisha in GEISHAS],
        "colours": [geisha.colour for geisha in GEISHAS],
        "letters": [geisha.letter for geisha in GEISHAS],
        "terms": {
            key: term(key, lang)
            for key in ("charm", "marker", "take_gift", "take_competition", "hidden")
        },
    }
