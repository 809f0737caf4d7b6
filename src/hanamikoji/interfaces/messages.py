"""The terminal interface's own sentences in English, Spanish and French.

Game terms (actions, items, charm, markers) are not here: they come from
:mod:`hanamikoji.notation.names`, and templates take them as fields. ``en-2018`` uses
the English sentences with the 2018 edition's terms.

>>> message("pass_terminal", "es", player="Jugador 2")
'Pasa el terminal a Jugador 2 y pulsa Intro. '
>>> command_for("AYUDA"), command_for("S:D")
('help', None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Literal

from hanamikoji.core.errors import Illegality, IllegalMoveError
from hanamikoji.core.moves import MoveKind
from hanamikoji.notation.names import Lang, action_name, card_label

__all__ = [
    "COMMANDS",
    "MESSAGES",
    "UI_LANGUAGES",
    "command_for",
    "illegality",
    "is_yes",
    "localized",
    "message",
    "ui_lang",
]

UiLang = Literal["en", "es", "fr"]
UI_LANGUAGES: tuple[UiLang, ...] = ("en", "es", "fr")

MESSAGES: dict[str, tuple[str, str, str]] = {
    # key: (English, Spanish, French)
    # -- players and the board
    "player": ("Player {number}", "Jugador {number}", "Joueur {number}"),
    "named_player": (
        "{name} (Player {number})",
        "{name} (Jugador {number})",
        "{name} (Joueur {number})",
    ),
    "bot_player": (
        "Player {number} ({bot})",
        "Jugador {number} ({bot})",
        "Joueur {number} ({bot})",
    ),
    "you_label": ("{player} (you)", "{player} (tú)", "{player} (vous)"),
    "board_title": (
        "Round {round} · {variant}",
        "Ronda {round} · {variant}",
        "Manche {round} · {variant}",
    ),
    "col_geisha": ("Geisha", "Geisha", "Geisha"),
    "col_charm": ("Charm", "Carisma", "Art"),
    "col_item": ("Item", "Objeto", "Objet"),
    "col_marker": ("Marker", "Marcador", "Jeton"),
    "marker_neutral": ("neutral", "neutral", "neutre"),
    "marker_them": ("opponent", "rival", "adversaire"),
    "marker_you": ("you", "tú", "vous"),
    "deck_and_hands": (
        "Deck: {deck} cards · in hand: {me} {mine}, {them} {theirs}",
        "Mazo: {deck} cartas · en mano: {me} {mine}, {them} {theirs}",
        "Pioche : {deck} cartes · en main : {me} {mine}, {them} {theirs}",
    ),
    "used_actions": (
        "Actions used by {player}: {actions}",
        "Acciones usadas por {player}: {actions}",
        "Actions jouées par {player} : {actions}",
    ),
    "labelled": ("{label}: {value}", "{label}: {value}", "{label} : {value}"),
    "none": ("none", "ninguna", "aucune"),
    "your_action": ("Your {action}:", "Tu {action}:", "Votre {action} :"),
    "your_hand": (
        "Your hand: {letters} ({count} cards)",
        "Tu mano: {letters} ({count} cartas)",
        "Votre main : {letters} ({count} cartes)",
    ),
    "drawn": ("just drawn", "recién robada", "piochée"),
    "this_round": ("This round:", "Esta ronda:", "Cette manche :"),
    "your_turn": (
        "Your turn. Actions left: {actions}.",
        "Tu turno. Acciones disponibles: {actions}.",
        "À vous. Actions restantes : {actions}.",
    ),
    "answer_gift": (
        "{player} offers {offer}. Take one card:",
        "{player} ofrece {offer}. Toma una carta:",
        "{player} vous fait une {offer}. Prenez une carte :",
    ),
    "answer_competition": (
        "{player} offers {offer}. Take one pair:",
        "{player} ofrece {offer}. Toma una pareja:",
        "{player} vous propose un {offer}. Prenez une paire :",
    ),
    "announce_action": ("{player} plays {move}", "{player} juega {move}", "{player} joue {move}"),
    "announce_response": ("{player}: {move}", "{player}: {move}", "{player} : {move}"),
    "last_round": (
        "Round {round} scored. Secrets: {secrets}. {tally}",
        "Ronda {round} puntuada. Secretos: {secrets}. {tally}",
        "Manche {round} décomptée. Secrets : {secrets}. {tally}",
    ),
    "tally": (
        "{player}: {charm} {charm_term}, {geishas} geishas",
        "{player}: {charm} {charm_term}, {geishas} geishas",
        "{player} : {charm} {charm_term}, {geishas} geishas",
    ),
    "round_scored": (
        "End of round {round}: scoring",
        "Fin de la ronda {round}: puntuación",
        "Fin de la manche {round} : décompte",
    ),
    "secrets_revealed": (
        "Secrets revealed: {secrets}",
        "Secretos revelados: {secrets}",
        "Secrets révélés : {secrets}",
    ),
    "rounds_played": (
        "rounds played: {rounds}",
        "rondas jugadas: {rounds}",
        "manches jouées : {rounds}",
    ),
    # -- outcomes ({charm_term} is the edition's word for charm)
    "outcome_charm": (
        "{winner} wins with 11 or more {charm_term}.",
        "{winner} gana con 11 o más {charm_term}.",
        "{winner} gagne avec 11 {charm_term} ou plus.",
    ),
    "outcome_geishas": (
        "{winner} wins with 4 or more geishas.",
        "{winner} gana con 4 o más geishas.",
        "{winner} gagne avec 4 geishas ou plus.",
    ),
    "outcome_most_geishas": (
        "{winner} wins with more geishas after the last round.",
        "{winner} gana con más geishas tras la última ronda.",
        "{winner} gagne avec plus de geishas après la dernière manche.",
    ),
    "outcome_most_charm": (
        "{winner} wins with more {charm_term} after the last round.",
        "{winner} gana con más {charm_term} tras la última ronda.",
        "{winner} gagne avec plus de {charm_term} après la dernière manche.",
    ),
    "outcome_shared_win": (
        "Both players share the win: geishas and {charm_term} are tied after the last round.",
        "Los dos jugadores comparten la victoria: empate en geishas y {charm_term}"
        " tras la última ronda.",
        "Les deux joueurs partagent la victoire : égalité de geishas et de {charm_term}"
        " après la dernière manche.",
    ),
    "outcome_no_winner": (
        "Nobody wins: tied on {charm_term} after the last round.",
        "Nadie gana: empate a {charm_term} tras la última ronda.",
        "Personne ne gagne : égalité de {charm_term} après la dernière manche.",
    ),
    "outcome_round_cap": (
        "Draw: the round limit was reached.",
        "Empate: se alcanzó el límite de rondas.",
        "Match nul : la limite de manches est atteinte.",
    ),
    "game_over": ("Game over", "Fin de la partida", "Fin de la partie"),
    "reveal_title": (
        "Everything that was hidden",
        "Todo lo que estaba oculto",
        "Tout ce qui était caché",
    ),
    "reveal_round": (
        "Round {round} · removed card: {removed}",
        "Ronda {round} · carta retirada: {removed}",
        "Manche {round} · carte écartée : {removed}",
    ),
    "reveal_dealt": ("dealt", "repartidas", "distribuées"),
    "reveal_drawn": ("drawn", "robadas", "piochées"),
    # -- the prompt
    "intro": (
        "Hanamikoji · variant {variant}: {description} · seed {seed}",
        "Hanamikoji · variante {variant}: {description} · semilla {seed}",
        "Hanamikoji · variante {variant} : {description} · graine {seed}",
    ),
    "starts": ("{player} starts.", "Empieza {player}.", "{player} commence."),
    "intro_help": (
        "Type a decision such as S:D, 'moves' for the legal ones, 'help', or 'quit'.",
        "Escribe una decisión como S:D, 'jugadas' para ver las legales, 'ayuda' o 'salir'.",
        "Tapez une décision comme S:D, 'coups' pour les coups légaux, 'aide' ou 'quitter'.",
    ),
    "prompt": ("{player}> ", "{player}> ", "{player}> "),
    "pass_terminal": (
        "Pass the terminal to {player}, then press Enter. ",
        "Pasa el terminal a {player} y pulsa Intro. ",
        "Passez le terminal à {player}, puis appuyez sur Entrée. ",
    ),
    "empty_input": (
        "Type a decision, a number from 'moves', or 'help'.",
        "Escribe una decisión, un número de 'jugadas' o 'ayuda'.",
        "Tapez une décision, un numéro de 'coups' ou 'aide'.",
    ),
    "no_such_number": (
        "There is no decision number {number}: choose 1 to {count} ('moves' lists them).",
        "No hay decisión número {number}: elige de 1 a {count} ('jugadas' las muestra).",
        "Il n'y a pas de décision numéro {number} : choisissez de 1 à {count}"
        " ('coups' les affiche).",
    ),
    "not_a_move": (
        "Not a decision: {error}. Type 'help' for the notation.",
        "No es una decisión: {error}. Escribe 'ayuda' para ver la notación.",
        "Ce n'est pas une décision : {error}. Tapez 'aide' pour la notation.",
    ),
    # -- why a decision is not legal now (one per core.errors.Illegality; the web
    #    server sends them too, under these keys as its error codes)
    "err_game_over": (
        "The game is over.",
        "La partida ha terminado.",
        "La partie est terminée.",
    ),
    "err_answer_first": (
        "First answer your opponent's {action}.",
        "Primero responde al {action} de tu rival.",
        "Répondez d'abord à l'{action} de votre adversaire.",
    ),
    "err_not_offered": (
        "The {action} on offer does not hold that choice.",
        "El {action} ofrecido no contiene esa opción.",
        "L'{action} proposée ne contient pas ce choix.",
    ),
    "err_no_offer": (
        "There is no offer to answer: it is your turn to act.",
        "No hay ninguna oferta que responder: te toca actuar.",
        "Il n'y a pas d'offre à laquelle répondre : c'est à vous d'agir.",
    ),
    "err_used": (
        "You have already used {action} this round.",
        "Ya has usado {action} en esta ronda.",
        "Vous avez déjà joué {action} dans cette manche.",
    ),
    "err_card_count": (
        "{action} takes {count} card(s).",
        "{action} usa {count} carta(s).",
        "{action} se joue avec {count} carte(s).",
    ),
    "err_not_in_hand": (
        "Not in your hand: {cards}.",
        "No está en tu mano: {cards}.",
        "Pas dans votre main : {cards}.",
    ),
    "err_awaiting_deal": (
        "The next round has not been dealt yet.",
        "La siguiente ronda aún no se ha repartido.",
        "La manche suivante n'a pas encore été distribuée.",
    ),
    "help_title": ("Notation", "Notación", "Notation"),
    "help_letters": (
        "Cards are the letters of the geisha row: A Ayane, B Iroha, C Tomoyo, D Yoko,"
        " E Chiharu, F Anju, G Ruri. Upper or lower case, spaces allowed.",
        "Las cartas son las letras de la fila de geishas: A Ayane, B Iroha, C Tomoyo, D Yoko,"
        " E Chiharu, F Anju, G Ruri. Mayúsculas o minúsculas, con espacios si quieres.",
        "Les cartes sont les lettres de la rangée de geishas : A Ayane, B Iroha, C Tomoyo,"
        " D Yoko, E Chiharu, F Anju, G Ruri. Majuscules ou minuscules, espaces permis.",
    ),
    "help_decision": ("decision", "decisión", "décision"),
    "help_write": ("write", "se escribe", "s'écrit"),
    "help_example_now": ("legal now, e.g.", "legal ahora, p. ej.", "légal maintenant, ex."),
    "help_answer": (
        "Answering an offer, the cards alone are enough (D, FG), or its number (1, 2).",
        "Al responder a una oferta bastan las cartas (D, FG) o su número (1, 2).",
        "Pour répondre à une offre, les cartes suffisent (D, FG), ou son numéro (1, 2).",
    ),
    "help_commands": (
        "Commands: moves (numbered legal decisions; a number picks one), log, board, rules,"
        " help, quit.",
        "Órdenes: jugadas (decisiones legales numeradas; un número elige una), registro,"
        " tablero, reglas, ayuda, salir.",
        "Commandes : coups (décisions légales numérotées ; un numéro en choisit une),"
        " journal, plateau, règles, aide, quitter.",
    ),
    "rules_variant": (
        "This game's variant, {variant}: {description}",
        "Variante de esta partida, {variant}: {description}",
        "Variante de cette partie, {variant} : {description}",
    ),
    "rules_english": (
        "The rules follow (in English).",
        "Siguen las reglas (en inglés).",
        "Les règles suivent (en anglais).",
    ),
    "moves_title": (
        "Legal decisions (type the number or the notation):",
        "Decisiones legales (escribe el número o la notación):",
        "Décisions légales (tapez le numéro ou la notation) :",
    ),
    "log_title": ("Public log", "Registro público", "Journal public"),
    "log_empty": (
        "No decision yet.",
        "Todavía no hay decisiones.",
        "Aucune décision pour l'instant.",
    ),
    "round_heading": ("Round {round}", "Ronda {round}", "Manche {round}"),
    # -- stopping and saving
    "stopped_quit": ("Game stopped.", "Partida interrumpida.", "Partie arrêtée."),
    "engine_forfeit": (
        "{player} forfeits the game: {reason}",
        "{player} pierde la partida por abandono: {reason}",
        "{player} perd la partie par forfait : {reason}",
    ),
    "forfeit_win": (
        "{player} wins by forfeit · {result}",
        "{player} gana por abandono del rival · {result}",
        "{player} gagne par forfait · {result}",
    ),
    "engine_not_started": (
        "the engine '{command}' did not start: {reason}",
        "el motor '{command}' no arrancó: {reason}",
        "le moteur « {command} » n'a pas démarré : {reason}",
    ),
    "stopped_eof": (
        "End of input: the game stops here.",
        "Fin de la entrada: la partida se detiene aquí.",
        "Fin de l'entrée : la partie s'arrête ici.",
    ),
    "stopped_interrupt": ("Interrupted.", "Interrumpido.", "Interrompu."),
    "save_question": (
        "Save the game record? [y/N] ",
        "¿Guardar el registro de la partida? [s/N] ",
        "Enregistrer la partie ? [o/N] ",
    ),
    "save_file": (
        "File name [{default}]: ",
        "Nombre del archivo [{default}]: ",
        "Nom du fichier [{default}] : ",
    ),
    "saved": (
        "The game record is saved in {path}.",
        "El registro de la partida está guardado en {path}.",
        "La partie est enregistrée dans {path}.",
    ),
    "not_saved": (
        "The game record was not saved (use --save FILE to keep it).",
        "El registro de la partida no se ha guardado (usa --save ARCHIVO para conservarlo).",
        "La partie n'a pas été enregistrée (utilisez --save FICHIER pour la garder).",
    ),
    "save_failed": (
        "Could not save the record in {path}: {error}",
        "No se pudo guardar el registro en {path}: {error}",
        "Impossible d'enregistrer la partie dans {path} : {error}",
    ),
    # -- replays
    "round_start": (
        "Round {round} · {player} starts",
        "Ronda {round} · empieza {player}",
        "Manche {round} · {player} commence",
    ),
    "removed_card": (
        "Removed card: {card}",
        "Carta retirada: {card}",
        "Carte écartée : {card}",
    ),
    "dealt_hand": (
        "{player} is dealt: {cards}",
        "{player} recibe: {cards}",
        "{player} reçoit : {cards}",
    ),
    "deck_order": (
        "Deck, top first: {cards}",
        "Mazo, de arriba abajo: {cards}",
        "Pioche, du haut : {cards}",
    ),
    "step_prompt": (
        "[Enter: next, q: stop] ",
        "[Intro: siguiente, q: parar] ",
        "[Entrée : suivant, q : arrêter] ",
    ),
    "unfinished": (
        "The record stops after {moves} decisions: the game was not finished.",
        "El registro termina tras {moves} decisiones: la partida no se acabó.",
        "La partie enregistrée s'arrête après {moves} décisions : elle n'était pas finie.",
    ),
    "replay_players": ("{first} vs {second}", "{first} contra {second}", "{first} contre {second}"),
    "replay_variant": (
        "Variant {variant} · seed {seed}",
        "Variante {variant} · semilla {seed}",
        "Variante {variant} · graine {seed}",
    ),
    # -- listings and errors of the command line
    "variants_title": ("Variants", "Variantes", "Variantes"),
    "bots_title": ("Bots", "Bots", "Bots"),
    "bots_default": (
        "* {bot}: the opponent of 'hanamikoji play' without --bot.",
        "* {bot}: el rival de 'hanamikoji play' sin --bot.",
        "* {bot} : l'adversaire de 'hanamikoji play' sans --bot.",
    ),
    "bots_options": (
        "NAME:OPTION=VALUE,...: the bot with some options set, e.g. ismcts:iterations=800.",
        "NOMBRE:OPCIÓN=VALOR,...: el bot con opciones fijadas, p. ej. ismcts:iterations=800.",
        "NOM:OPTION=VALEUR,... : le bot avec des options fixées, p. ex. ismcts:iterations=800.",
    ),
    "variants_cap": (
        "NAME/cap=N: at most N rounds, for tools that need bounded games.",
        "NOMBRE/cap=N: como mucho N rondas, para herramientas que necesitan partidas acotadas.",
        "NOM/cap=N : au plus N manches, pour les outils qui ont besoin de parties bornées.",
    ),
    "col_name": ("name", "nombre", "nom"),
    "levels_title": ("Difficulty levels", "Niveles de dificultad", "Niveaux de difficulté"),
    "col_level": ("level", "nivel", "niveau"),
    "col_bot": ("bot", "bot", "bot"),
    "col_time": ("time per decision", "tiempo por decisión", "temps par décision"),
    "options_title": ("Options", "Opciones", "Options"),
    "col_defaults": (
        "options (defaults)",
        "opciones (por defecto)",
        "options (par défaut)",
    ),
    "col_option": ("option", "opción", "option"),
    "col_meaning": ("what it sets", "qué fija", "ce qu'elle règle"),
    "col_rounds": ("rounds", "rondas", "manches"),
    "col_description": ("description", "descripción", "description"),
    "col_options": ("options", "opciones", "options"),
    "unlimited": ("until someone wins", "hasta que alguien gane", "jusqu'à une victoire"),
    "variant_classic": (
        "Rounds until someone has 11 charm or 4 geishas.",
        "Rondas hasta que alguien tenga 11 de carisma o 4 geishas.",
        "Des manches jusqu'à ce que quelqu'un ait 11 points Art ou 4 geishas.",
    ),
    "variant_three_rounds": (
        "At most 3 rounds; then most geishas, then most charm, then a shared win"
        " (2018 English optional rule).",
        "Como mucho 3 rondas; después, más geishas, luego más carisma, si no victoria"
        " compartida (regla opcional inglesa de 2018).",
        "Au plus 3 manches ; ensuite le plus de geishas, puis le plus d'Art, sinon victoire"
        " partagée (règle optionnelle anglaise de 2018).",
    ),
    "variant_french": (
        "At most 3 rounds; then most charm; a tie has no winner (French edition).",
        "Como mucho 3 rondas; después, más carisma; un empate no tiene ganador (edición francesa).",
        "Au plus 3 manches ; ensuite le plus de points Art ; égalité : pas de vainqueur"
        " (édition française).",
    ),
    "error": ("error: {error}", "error: {error}", "erreur : {error}"),
    # -- the full-screen app (interfaces/tui)
    "tui_help_key": ("? help", "? ayuda", "? aide"),
    "tui_side": (
        "{charm} {charm_term} · {geishas} geishas",
        "{charm} {charm_term} · {geishas} geishas",
        "{charm} {charm_term} · {geishas} geishas",
    ),
    "tui_hand": (
        "Your hand: {count} cards",
        "Tu mano: {count} cartas",
        "Votre main : {count} cartes",
    ),
    "tui_how_to_act": (
        "Press S, T, G or C (or click a marker), then choose its cards.",
        "Pulsa S, T, G o C (o haz clic en un marcador) y elige sus cartas.",
        "Appuyez sur S, T, G ou C (ou cliquez un jeton), puis choisissez ses cartes.",
    ),
    "tui_choose_action": (
        "Choose an action first: S, T, G or C.",
        "Elige antes una acción: S, T, G o C.",
        "Choisissez d'abord une action : S, T, G ou C.",
    ),
    "tui_choose_cards": (
        "{action}: choose {count} card(s):",
        "{action}: elige {count} carta(s):",
        "{action} : choisissez {count} carte(s) :",
    ),
    "tui_how_to_choose": (
        "Keys 1-7, or ←/→ and Space, or a click · Backspace takes back · Esc starts again",
        "Teclas 1-7, o ←/→ y Espacio, o un clic · Retroceso deshace · Esc vuelve a empezar",
        "Touches 1-7, ou ←/→ et Espace, ou un clic · Retour arrière annule · Échap recommence",
    ),
    "tui_pairs": (
        "{action}: which two pairs? P or a click switches.",
        "{action}: ¿qué dos parejas? P o un clic cambia.",
        "{action} : quelles deux paires ? P ou un clic change.",
    ),
    "tui_enter_plays": (
        "Enter (or a click here) plays it · Backspace takes back",
        "Intro (o un clic aquí) la juega · Retroceso deshace",
        "Entrée (ou un clic ici) la joue · Retour arrière annule",
    ),
    "tui_answer_keys": (
        "↑/↓ or 1-{count} choose · Enter (or a click here) takes it",
        "↑/↓ o 1-{count} eligen · Intro (o un clic aquí) la toma",
        "↑/↓ ou 1-{count} choisissent · Entrée (ou un clic ici) la prend",
    ),
    "tui_no_card": (
        "Your hand has {count} cards: choose 1 to {count}.",
        "Tu mano tiene {count} cartas: elige de 1 a {count}.",
        "Votre main a {count} cartes : choisissez de 1 à {count}.",
    ),
    "tui_no_option": (
        "Choose an answer from 1 to {count}.",
        "Elige una respuesta de 1 a {count}.",
        "Choisissez une réponse de 1 à {count}.",
    ),
    "tui_thinking": (
        "{player} is thinking… {seconds} s",
        "{player} está pensando… {seconds} s",
        "{player} réfléchit… {seconds} s",
    ),
    "tui_unseen": ("unseen", "por ver", "à voir"),
    "tui_keys": (
        "1-7 cards · Enter play · ⌫ undo · Esc clear · K unseen · ? help · Q quit",
        "1-7 cartas · Intro jugar · ⌫ deshacer · Esc borrar · K por ver · ? ayuda · Q salir",
        "1-7 cartes · Entrée jouer · ⌫ annuler · Échap effacer · K à voir · ? aide · Q quitter",
    ),
    "tui_help_title": ("Keys", "Teclas", "Touches"),
    "tui_help_keys": (
        "S, T, G, C     choose Secret, Trade-off, Gift or Competition (or click a marker)\n"
        "1-7            choose or give back the card with that number (or click it)\n"
        "←/→, Space     move along the hand, choose the card under ▸\n"
        "P              a Competition: switch how its four cards make two pairs\n"
        "↑/↓, 1-3       answering a Gift or Competition: the card or pair you take\n"
        "Enter          play the decision\n"
        "Backspace      take back the last step; Esc: start the decision again\n"
        "K              show or hide the column of cards not seen yet this round (unseen)\n"
        "?              this help and the rules; Q: stop the game; Ctrl+C: stop at once\n"
        "Cards are the letters of the geisha row with a glyph: A♪ Ayane (flute), B◭ Iroha,"
        " C§ Tomoyo, D☂ Yoko, E♫ Chiharu, F♨ Anju, G✿ Ruri. ◀ or ▶ beside a geisha: her"
        " marker is on that side; · on both: neutral. ×: an action marker already used;"
        " ▒: a card face down; *: the card just drawn.",
        "S, T, G, C     elige Secreto, Renuncia, Regalo o Competición (o clic en un marcador)\n"
        "1-7            elige o devuelve la carta con ese número (o haz clic en ella)\n"
        "←/→, Espacio   recorre la mano, elige la carta bajo ▸\n"
        "P              una Competición: cambia cómo sus cuatro cartas forman dos parejas\n"
        "↑/↓, 1-3       al responder a un Regalo o una Competición: la carta o pareja que tomas\n"
        "Intro          juega la decisión\n"
        "Retroceso      deshace el último paso; Esc: empieza de nuevo la decisión\n"
        "K              muestra u oculta la columna de cartas aún no vistas en la ronda\n"
        "?              esta ayuda y las reglas; Q: detiene la partida; Ctrl+C: para ya\n"
        "Las cartas son las letras de la fila de geishas con un símbolo: A♪ Ayane (flauta),"
        " B◭ Iroha, C§ Tomoyo, D☂ Yoko, E♫ Chiharu, F♨ Anju, G✿ Ruri. ◀ o ▶ junto a una"
        " geisha: su marcador está de ese lado; · a ambos lados: neutral. ×: un marcador de"
        " acción ya usado; ▒: una carta boca abajo; *: la carta recién robada.",
        "S, T, G, C     choisit Secret, Dépôt, Offre ou Échange (ou cliquez un jeton)\n"
        "1-7            choisit ou rend la carte de ce numéro (ou cliquez-la)\n"
        "←/→, Espace    parcourt la main, choisit la carte sous ▸\n"
        "P              un Échange : change la façon dont ses quatre cartes font deux paires\n"
        "↑/↓, 1-3       en réponse à une Offre ou un Échange : la carte ou la paire prise\n"
        "Entrée         joue la décision\n"
        "Retour arrière annule la dernière étape ; Échap : recommence la décision\n"
        "K              affiche ou cache la colonne des cartes pas encore vues (à voir)\n"
        "?              cette aide et les règles ; Q : arrête la partie ; Ctrl+C : tout de suite\n"
        "Les cartes sont les lettres de la rangée de geishas avec un symbole : A♪ Ayane"
        " (flûte), B◭ Iroha, C§ Tomoyo, D☂ Yoko, E♫ Chiharu, F♨ Anju, G✿ Ruri. ◀ ou ▶ à côté"
        " d'une geisha : son jeton est de ce côté ; · des deux côtés : neutre. × : un jeton"
        " d'action déjà joué ; ▒ : une carte face cachée ; * : la carte piochée.",
    ),
    "tui_help_close": (
        "Esc closes this help. The rules follow (in English).",
        "Esc cierra esta ayuda. Siguen las reglas (en inglés).",
        "Échap ferme cette aide. Les règles suivent (en anglais).",
    ),
    "tui_continue": (
        "Enter: continue",
        "Intro: continuar",
        "Entrée : continuer",
    ),
    "tui_save_title": (
        "Save the game record",
        "Guardar el registro de la partida",
        "Enregistrer la partie",
    ),
    "tui_save_hint": (
        "File name (.json: JSON, else text; .hkr suggested). Enter saves, Esc cancels.",
        "Nombre del archivo (.json: JSON, si no texto; se sugiere .hkr). Intro guarda,"
        " Esc cancela.",
        "Nom du fichier (.json : JSON, sinon texte ; .hkr conseillé). Entrée enregistre,"
        " Échap annule.",
    ),
    "tui_quit_question": (
        "Stop this game? Enter stops, S saves the record first, Esc goes back to it.",
        "¿Detener esta partida? Intro la detiene, S guarda antes el registro, Esc vuelve a ella.",
        "Arrêter cette partie ? Entrée l'arrête, S l'enregistre d'abord, Échap y revient.",
    ),
    "tui_quit_saved": (
        "Stop this game? Its record is saved. Enter stops, Esc goes back to it.",
        "¿Detener esta partida? Su registro está guardado. Intro la detiene, Esc vuelve a ella.",
        "Arrêter cette partie ? Elle est enregistrée. Entrée l'arrête, Échap y revient.",
    ),
    "tui_end_keys": (
        "R rematch · S save the record · V review the game · Q quit",
        "R revancha · S guardar el registro · V repasar la partida · Q salir",
        "R revanche · S enregistrer la partie · V revoir la partie · Q quitter",
    ),
    "tui_replay_keys": (
        "←/→ step · Home/End first/last · PgUp/PgDn by round · Q close",
        "←/→ paso · Inicio/Fin primera/última · RePág/AvPág por ronda · Q cerrar",
        "←/→ pas · Début/Fin première/dernière · PgPréc/PgSuiv par manche · Q fermer",
    ),
    "tui_replay_step": (
        "decision {step} of {total}",
        "decisión {step} de {total}",
        "décision {step} sur {total}",
    ),
}
"""Each interface sentence in English, Spanish and French; fields in braces."""

COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "h", "?", "ayuda", "aide"),
    "moves": ("moves", "m", "jugadas", "coups"),
    "log": ("log", "l", "registro", "journal"),
    "board": ("board", "tablero", "plateau"),
    "rules": ("rules", "reglas", "règles", "regles"),
    "quit": ("quit", "q", "exit", "salir", "quitter"),
}
"""Prompt commands and their words in every language (any word works in any language;
none is a card letter, which answers an offer)."""

_YES = frozenset({"y", "yes", "s", "si", "sí", "o", "oui"})
_COMMAND_WORDS = {word: command for command, words in COMMANDS.items() for word in words}


def ui_lang(lang: Lang) -> UiLang:
    """The sentence language of an edition language (``en-2018`` speaks English)."""
    return "en" if lang == "en-2018" else lang


def message(key: str, lang: Lang, **fields: object) -> str:
    """The sentence ``key`` in ``lang`` with its fields filled in. Raises ``KeyError`` for
    an unknown key."""
    english, spanish, french = MESSAGES[key]
    template = {"en": english, "es": spanish, "fr": french}[ui_lang(lang)]
    return template.format(**fields)


def command_for(text: str) -> str | None:
    """The prompt command ``text`` names (``help``, ``moves``, ``log``, ``board``,
    ``quit``), or ``None``."""
    return _COMMAND_WORDS.get(text.strip().lower())


def is_yes(text: str) -> bool:
    """Whether an answer means yes in any of the languages."""
    return text.strip().lower() in _YES


Field = Callable[[Lang], str] | int
"""A sentence's field: a number, or a name that depends on the language."""

_ILLEGALITY_KEYS = {
    Illegality.GAME_OVER: "err_game_over",
    Illegality.AWAITING_DEAL: "err_awaiting_deal",
    Illegality.ANSWER_FIRST: "err_answer_first",
    Illegality.NOT_OFFERED: "err_not_offered",
    Illegality.NO_OFFER: "err_no_offer",
    Illegality.ACTION_USED: "err_used",
    Illegality.CARD_COUNT: "err_card_count",
    Illegality.NOT_IN_HAND: "err_not_in_hand",
}


def illegality(error: IllegalMoveError) -> tuple[str, dict[str, Field]]:
    """The sentence that says, to the player who tried it, why a decision is not legal
    now, and its fields: the core's reason, in any language.

    >>> from hanamikoji.core import Game
    >>> game = Game(seed=7, first_player=0)
    >>> try:
    ...     game.push_text("S:B")
    ... except IllegalMoveError as error:
    ...     key, fields = illegality(error)
    >>> message(key, "fr", **{name: field("fr") for name, field in fields.items()})
    'Pas dans votre main : Éventail (Iroha).'
    """
    fields: dict[str, Field] = {}
    if error.action is not None:
        kind = MoveKind(error.action)
        fields["action"] = lambda lang: action_name(kind, lang)
    if error.count is not None:
        fields["count"] = error.count
    if error.cards:
        cards = error.cards
        fields["cards"] = lambda lang: ", ".join(card_label(card, lang) for card in cards)
    return _ILLEGALITY_KEYS[error.reason], fields


def localized(fields: Mapping[str, object], lang: Lang) -> dict[str, object]:
    """The fields of a sentence with the names (functions of the language) in ``lang``."""
    return {name: field(lang) if callable(field) else field for name, field in fields.items()}
