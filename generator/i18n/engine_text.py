"""Words the engine itself prints (not a game's): the calibration sheet's instructions and
the kit cover's headings when a game's catalog has no `kit.*` keys of its own.

Games bring their own words in their catalogs; these few sentences come with the
tool, in the languages its users write in so far.
"""

from __future__ import annotations

# {edge} is the flip edge in the same language; {option} the build option to use.
CALIBRATION = {
    "en": ("Print both pages at 100 %, double-sided, flipping on the {edge}. Hold the sheet against the light, "
           "front side up: the numbers under the red cross are X and Y. Then build with {option} X,Y",
           {"long-edge": "long edge", "short-edge": "short edge"}),
    "bg": ("Отпечатайте двете страници в мащаб 100 %, двустранно, с обръщане по {edge}. Погледнете листа срещу "
           "светлината, с лицевата страна нагоре: числата под червения кръст са X и Y. След това стартирайте "
           "с {option} X,Y",
           {"long-edge": "дългата страна", "short-edge": "късата страна"}),
    "ru": ("Напечатайте обе страницы в масштабе 100 %, с двух сторон, с переворотом по {edge}. Посмотрите "
           "лист на просвет лицевой стороной вверх: числа под красным крестом — это X и Y. Затем соберите "
           "с {option} X,Y",
           {"long-edge": "длинному краю", "short-edge": "короткому краю"}),
    "hu": ("Nyomtassa ki mindkét oldalt 100 %-os méretben, kétoldalasan, a {edge} fordítva. Tartsa a lapot "
           "a fény felé, előlappal felfelé: a piros kereszt alatti számok az X és az Y. Ezután építsen "
           "a {option} X,Y kapcsolóval",
           {"long-edge": "hosszú élén", "short-edge": "rövid élén"}),
    "ka": ("ამობეჭდეთ ორივე გვერდი 100 %-ით, ორმხრივად, {edge} გადაბრუნებით. ფურცელი შუქზე "
           "გახედეთ, წინა მხარით ზემოთ: წითელი ჯვრის ქვეშ რიცხვები არის X და Y. შემდეგ ააწყვეთ "
           "{option} X,Y-ით",
           {"long-edge": "გრძელ კიდეზე", "short-edge": "მოკლე კიდეზე"}),
    "de": ("Drucken Sie beide Seiten in 100 %, beidseitig, Wenden an der {edge}. Halten Sie das Blatt mit der "
           "Vorderseite nach oben gegen das Licht: Die Zahlen unter dem roten Kreuz sind X und Y. Bauen Sie "
           "dann mit {option} X,Y",
           {"long-edge": "langen Kante", "short-edge": "kurzen Kante"}),
    "fr": ("Imprimez les deux pages à 100 %, en recto verso, retournement sur le {edge}. Regardez la feuille "
           "à contre-jour, recto vers le haut : les nombres sous la croix rouge sont X et Y. Puis construisez "
           "avec {option} X,Y",
           {"long-edge": "bord long", "short-edge": "bord court"}),
}


def calibration_instructions(lang: str, duplex: str) -> str:
    """What the calibration sheet tells the user to do, for a flip on the long or the short edge."""
    text, edges = CALIBRATION[lang]
    return text.format(edge=edges[duplex], option="--back-offset")


# The kit cover's words by language; a game's own `kit.*` keys win. `kit.print_steps` is a game's own
# extra steps (none by default): the printing steps themselves are made from what was built (KIT_STEPS).
KIT_WORDS = {
    "en": {"kit.title": "Print-and-play kit", "kit.contents": "What’s inside", "kit.printing": "How to print"},
    "bg": {"kit.title": "Комплект за печат", "kit.contents": "Какво има вътре", "kit.printing": "Как да отпечатате"},
    "ru": {"kit.title": "Набор для печати", "kit.contents": "Что внутри", "kit.printing": "Как печатать"},
    "hu": {"kit.title": "Nyomtatható játékcsomag", "kit.contents": "Mi van benne", "kit.printing": "Nyomtatás"},
    "ka": {"kit.title": "დასაბეჭდი ნაკრები", "kit.contents": "რა არის შიგნით", "kit.printing": "როგორ დავბეჭდოთ"},
    "de": {"kit.title": "Print-and-Play-Set", "kit.contents": "Inhalt", "kit.printing": "So wird gedruckt"},
    "fr": {"kit.title": "Kit à imprimer", "kit.contents": "Contenu", "kit.printing": "Comment imprimer"},
}

# The words around a game's facts on covers (the kit's subtitle, the rulebook's cover): {players} is an
# edition's player count ("2–6"); {age} and {play_time} the game.yaml values written as plain text ("6+",
# "20–30 min"). A game's catalog may say it its own way under the same key (or rules.cover.players).
FACT_WORDS = {
    "en": {"game.players": "{players} players", "game.age": "Ages {age}",
           "game.play_time": "Playing time: {play_time}"},
    "bg": {"game.players": "{players} играчи", "game.age": "Възраст: {age}",
           "game.play_time": "Времетраене: {play_time}"},
    "ru": {"game.players": "{players} игроков", "game.age": "Возраст: {age}",
           "game.play_time": "Время игры: {play_time}"},
    "hu": {"game.players": "{players} játékos", "game.age": "Korosztály: {age}",
           "game.play_time": "Játékidő: {play_time}"},
    "ka": {"game.players": "{players} მოთამაშე", "game.age": "ასაკი: {age}",
           "game.play_time": "ხანგრძლივობა: {play_time}"},
    "de": {"game.players": "{players} Spieler", "game.age": "Alter: {age}",
           "game.play_time": "Spieldauer: {play_time}"},
    "fr": {"game.players": "{players} joueurs", "game.age": "Âge : {age}",
           "game.play_time": "Durée : {play_time}"},
}


def fact_word(lang: str, key: str) -> str:
    """The engine's words around a cover fact (game.players, game.age, game.play_time) in a language."""
    return FACT_WORDS.get(lang.split("-")[0], FACT_WORDS["en"])[key]


# The kit's printing steps, one key each, picked and filled from what a build made (imposition/instructions.py).
# Placeholders: {pages} a list of page ranges of kit.pdf, {x} and {y} millimetres.
KIT_STEP_PLACEHOLDERS = ("pages", "x", "y")
KIT_STEPS = {
    "en": {
        "kit.step.scale": "Print at 100 % (“Actual size”), never “fit to page”: the bar on the first page of each "
                          "part must measure 50 mm.",
        "kit.step.card_stock": "Pages {pages}: card stock (160–220 g/m²).",
        "kit.step.plain_paper": "Pages {pages}: plain paper (80 g/m²).",
        "kit.step.duplex_long_edge": "Print double-sided, **flipping on the long edge**: each page of backs follows "
                                     "its fronts.",
        "kit.step.duplex_short_edge": "Print double-sided, **flipping on the short edge**: each page of backs "
                                      "follows its fronts.",
        "kit.step.gutterfold": "Card sheets are printed on one side: fold each along the dashed line in its middle, "
                               "glue the halves together, then cut.",
        "kit.step.back_offset": "The backs are moved {x} mm right and {y} mm down to suit your printer.",
        "kit.step.single_sided": "Blank pages are the backs of one-sided sheets: they keep the whole file "
                                 "double-sided.",
        "kit.step.booklet": "Rulebook, pages {pages}: print them as a job of their own, double-sided, **flipping on "
                            "the short edge**; fold the stack in half and staple it twice along the fold.",
        "kit.step.cut": "Cut along the crop marks (solid lines); dashed lines are folds.",
        "kit.step.cut_gutter": "Where pieces stand apart, cut on each piece’s own marks: the strip between them "
                               "falls away.",
        "kit.step.pawns": "Pawns: cut them out, fold along the dashed lines, glue the halves together and fold the "
                          "bases out.",
        "kit.step.board": "Board: cut each sheet along its dashed line; glue it over its neighbour’s strip (the one "
                          "with the crosses), its edge on the solid line, and tape the back.",
    },
    "bg": {
        "kit.step.scale": "Печатайте в мащаб 100 % („Действителен размер“), никога „Побиране в страницата“: лентата "
                          "на първата страница на всяка част трябва да е 50 мм.",
        "kit.step.card_stock": "Страници {pages}: картон (160–220 г/м²).",
        "kit.step.plain_paper": "Страници {pages}: обикновена хартия (80 г/м²).",
        "kit.step.duplex_long_edge": "Печатайте двустранно, **с обръщане по дългата страна**: всяка страница с "
                                     "гърбове следва лицата си.",
        "kit.step.duplex_short_edge": "Печатайте двустранно, **с обръщане по късата страна**: всяка страница с "
                                      "гърбове следва лицата си.",
        "kit.step.gutterfold": "Листовете с карти се печатат от едната страна: прегънете всеки по пунктира в "
                               "средата, залепете половините и тогава изрежете.",
        "kit.step.back_offset": "Гърбовете са преместени с {x} мм надясно и {y} мм надолу според вашия принтер.",
        "kit.step.single_sided": "Празните страници са гърбовете на едностранните листове: така целият файл се "
                                 "печата двустранно.",
        "kit.step.booklet": "Правилата, страници {pages}: отпечатайте ги отделно, двустранно, **с обръщане по "
                            "късата страна**; прегънете листовете наполовина и ги захванете с два телбода по "
                            "сгъвката.",
        "kit.step.cut": "Режете по маркерите за рязане (плътните линии); пунктирът е за прегъване.",
        "kit.step.cut_gutter": "Където частите са раздалечени, режете по маркерите на всяка: ивицата между тях "
                               "отпада.",
        "kit.step.pawns": "Пионки: изрежете ги, прегънете по пунктира, залепете половините и отгънете основите.",
        "kit.step.board": "Игрално поле: изрежете всеки лист по пунктира му; залепете го върху ивицата на съседния "
                          "лист (тази с кръстчетата), с ръба върху плътната линия, и залепете с тиксо отзад.",
    },
    "ru": {
        "kit.step.scale": "Печатайте в масштабе 100 % («Фактический размер»), никогда не «По размеру страницы»: "
                          "полоска на первой странице каждой части должна быть 50 мм.",
        "kit.step.card_stock": "Страницы {pages}: плотная бумага (160–220 г/м²).",
        "kit.step.plain_paper": "Страницы {pages}: обычная бумага (80 г/м²).",
        "kit.step.duplex_long_edge": "Печатайте с двух сторон, **с переворотом по длинному краю**: каждая страница "
                                     "рубашек идёт за своими лицевыми сторонами.",
        "kit.step.duplex_short_edge": "Печатайте с двух сторон, **с переворотом по короткому краю**: каждая "
                                      "страница рубашек идёт за своими лицевыми сторонами.",
        "kit.step.gutterfold": "Листы с картами печатаются с одной стороны: согните каждый по пунктиру посередине, "
                               "склейте половины, затем разрежьте.",
        "kit.step.back_offset": "Рубашки сдвинуты на {x} мм вправо и {y} мм вниз под ваш принтер.",
        "kit.step.single_sided": "Пустые страницы — обороты односторонних листов: так весь файл печатается с двух "
                                 "сторон.",
        "kit.step.booklet": "Правила, страницы {pages}: напечатайте их отдельным заданием, с двух сторон, **с "
                            "переворотом по короткому краю**; согните стопку пополам и скрепите двумя скобами по "
                            "сгибу.",
        "kit.step.cut": "Режьте по меткам обреза (сплошные линии); пунктир — линии сгиба.",
        "kit.step.cut_gutter": "Где детали стоят с промежутком, режьте по меткам каждой: полоска между ними уходит "
                               "в обрезки.",
        "kit.step.pawns": "Фишки: вырежьте, согните по пунктиру, склейте половины и отогните подставки.",
        "kit.step.board": "Поле: обрежьте каждый лист по его пунктиру; наклейте его на полосу соседнего листа (с "
                          "крестиками), краем на сплошную линию, и проклейте скотчем с обратной стороны.",
    },
    "hu": {
        "kit.step.scale": "Nyomtasson 100 %-os méretben („Tényleges méret”), soha ne „Oldalhoz igazítva”: minden "
                          "rész első oldalán a vonalnak 50 mm-esnek kell lennie.",
        "kit.step.card_stock": "{pages}. oldal: karton (160–220 g/m²).",
        "kit.step.plain_paper": "{pages}. oldal: sima papír (80 g/m²).",
        "kit.step.duplex_long_edge": "Nyomtasson kétoldalasan, **a hosszú élen fordítva**: minden hátlapoldal az "
                                     "előlapjai után következik.",
        "kit.step.duplex_short_edge": "Nyomtasson kétoldalasan, **a rövid élen fordítva**: minden hátlapoldal az "
                                      "előlapjai után következik.",
        "kit.step.gutterfold": "A kártyaíveket egy oldalra nyomtatja: hajtsa félbe mindegyiket a középső "
                               "szaggatott vonalon, ragassza össze a feleket, majd vágja szét.",
        "kit.step.back_offset": "A hátlapok {x} mm-rel jobbra és {y} mm-rel lejjebb kerültek az Ön nyomtatójához.",
        "kit.step.single_sided": "Az üres oldalak az egyoldalas lapok hátoldalai: így az egész fájl kétoldalasan "
                                 "nyomtatható.",
        "kit.step.booklet": "Szabálykönyv, {pages}. oldal: külön nyomtatási feladatként, kétoldalasan, **a rövid élen "
                            "fordítva** nyomtassa; hajtsa félbe a köteget, és a hajtásnál tűzze össze két kapoccsal.",
        "kit.step.cut": "Vágjon a vágójelek mentén (folytonos vonalak); a szaggatott vonalak hajtások.",
        "kit.step.cut_gutter": "Ahol a darabok között rés van, mindegyiket a saját jelein vágja: a köztük lévő csík "
                               "lehullik.",
        "kit.step.pawns": "Bábuk: vágja ki őket, hajtsa a szaggatott vonalak mentén, ragassza össze a feleket, és "
                          "hajtsa ki a talpakat.",
        "kit.step.board": "Tábla: vágja le minden lapot a szaggatott vonala mentén; ragassza a szomszéd lap csíkjára "
                          "(a keresztekkel), élével a folytonos vonalra, és hátul ragassza le szalaggal.",
    },
    "ka": {
        "kit.step.scale": "დაბეჭდეთ 100 %-ით („რეალური ზომა“), არასოდეს „გვერდზე მორგებით“: თითოეული ნაწილის "
                          "პირველ გვერდზე ზოლი 50 მმ უნდა იყოს.",
        "kit.step.card_stock": "გვერდები {pages}: მუყაო (160–220 გ/მ²).",
        "kit.step.plain_paper": "გვერდები {pages}: ჩვეულებრივი ქაღალდი (80 გ/მ²).",
        "kit.step.duplex_long_edge": "დაბეჭდეთ ორმხრივად, **გრძელ კიდეზე გადაბრუნებით**: ზურგების ყოველი გვერდი "
                                     "თავის წინა მხარეებს მოსდევს.",
        "kit.step.duplex_short_edge": "დაბეჭდეთ ორმხრივად, **მოკლე კიდეზე გადაბრუნებით**: ზურგების ყოველი გვერდი "
                                      "თავის წინა მხარეებს მოსდევს.",
        "kit.step.gutterfold": "ბარათების ფურცლები ცალ მხარეს იბეჭდება: თითოეული შუა წყვეტილ ხაზზე გადაკეცეთ, "
                               "ნახევრები ერთმანეთს მიაწებეთ, შემდეგ ამოჭერით.",
        "kit.step.back_offset": "ზურგები {x} მმ-ით მარჯვნივ და {y} მმ-ით ქვემოთაა გადატანილი თქვენი პრინტერისთვის.",
        "kit.step.single_sided": "ცარიელი გვერდები ცალმხრივი ფურცლების ზურგებია: ასე მთელი ფაილი ორმხრივად "
                                 "იბეჭდება.",
        "kit.step.booklet": "წესები, გვერდები {pages}: დაბეჭდეთ ცალკე, ორმხრივად, **მოკლე კიდეზე გადაბრუნებით**; "
                            "დასტა შუაზე გადაკეცეთ და ნაკეცზე ორი სამაგრით დაამაგრეთ.",
        "kit.step.cut": "ამოჭერით ჭრის ნიშნების გასწვრივ (უწყვეტი ხაზები); წყვეტილი ხაზები ნაკეცებია.",
        "kit.step.cut_gutter": "სადაც ნაწილებს შორის ღრეჩოა, თითოეული თავისი ნიშნებით ამოჭერით: ზოლი მათ შორის "
                               "ნარჩენად რჩება.",
        "kit.step.pawns": "ფიგურები: ამოჭერით, წყვეტილ ხაზებზე გადაკეცეთ, ნახევრები მიაწებეთ და საყრდენები "
                          "გაშალეთ.",
        "kit.step.board": "დაფა: თითოეული ფურცელი მის წყვეტილ ხაზზე მოჭერით; მიაწებეთ მეზობლის ზოლს (ჯვრებიანს), "
                          "კიდით უწყვეტ ხაზზე, და უკნიდან წებოვანი ლენტით დაამაგრეთ.",
    },
    "de": {
        "kit.step.scale": "In 100 % („Tatsächliche Größe“) drucken, nie „An Seite anpassen“: Der Balken auf der "
                          "ersten Seite jedes Teils muss 50 mm messen.",
        "kit.step.card_stock": "Seiten {pages}: Karton (160–220 g/m²).",
        "kit.step.plain_paper": "Seiten {pages}: Normalpapier (80 g/m²).",
        "kit.step.duplex_long_edge": "Beidseitig drucken, **Wenden an der langen Kante**: Jede Seite mit Rückseiten "
                                     "folgt ihren Vorderseiten.",
        "kit.step.duplex_short_edge": "Beidseitig drucken, **Wenden an der kurzen Kante**: Jede Seite mit "
                                      "Rückseiten folgt ihren Vorderseiten.",
        "kit.step.gutterfold": "Kartenbögen werden einseitig gedruckt: jeden an der gestrichelten Linie in der Mitte "
                               "falzen, die Hälften zusammenkleben, dann schneiden.",
        "kit.step.back_offset": "Die Rückseiten sind für Ihren Drucker um {x} mm nach rechts und {y} mm nach unten "
                                "verschoben.",
        "kit.step.single_sided": "Leere Seiten sind die Rückseiten einseitiger Blätter: So lässt sich die ganze "
                                 "Datei beidseitig drucken.",
        "kit.step.booklet": "Spielregel, Seiten {pages}: als eigenen Auftrag beidseitig drucken, **Wenden an der "
                            "kurzen Kante**; den Stapel in der Mitte falzen und im Falz zweimal heften.",
        "kit.step.cut": "An den Schnittmarken schneiden (durchgezogene Linien); gestrichelte Linien werden gefalzt.",
        "kit.step.cut_gutter": "Wo Teile Abstand haben, jedes an seinen eigenen Marken schneiden: Der Streifen "
                               "dazwischen fällt weg.",
        "kit.step.pawns": "Spielfiguren: ausschneiden, an den gestrichelten Linien falzen, die Hälften "
                          "zusammenkleben und die Füße ausklappen.",
        "kit.step.board": "Spielplan: jedes Blatt an seiner gestrichelten Linie beschneiden; über den Streifen des "
                          "Nachbarblatts (mit den Kreuzen) kleben, die Kante auf der durchgezogenen Linie, und "
                          "hinten mit Klebeband sichern.",
    },
    "fr": {
        "kit.step.scale": "Imprimez à 100 % (« Taille réelle »), jamais « Ajuster à la page » : la barre de la "
                          "première page de chaque partie doit mesurer 50 mm.",
        "kit.step.card_stock": "Pages {pages} : papier cartonné (160–220 g/m²).",
        "kit.step.plain_paper": "Pages {pages} : papier ordinaire (80 g/m²).",
        "kit.step.duplex_long_edge": "Imprimez en recto verso, **retournement sur le bord long** : chaque page de "
                                     "dos suit ses faces.",
        "kit.step.duplex_short_edge": "Imprimez en recto verso, **retournement sur le bord court** : chaque page de "
                                      "dos suit ses faces.",
        "kit.step.gutterfold": "Les planches de cartes s’impriment d’un seul côté : pliez chacune sur le pointillé "
                               "du milieu, collez les moitiés, puis découpez.",
        "kit.step.back_offset": "Les dos sont décalés de {x} mm vers la droite et de {y} mm vers le bas pour votre "
                                "imprimante.",
        "kit.step.single_sided": "Les pages blanches sont les versos des feuilles imprimées d’un côté : tout le "
                                 "fichier s’imprime ainsi en recto verso.",
        "kit.step.booklet": "Règle du jeu, pages {pages} : imprimez-les à part, en recto verso, **retournement sur "
                            "le bord court** ; pliez la pile en deux et agrafez deux fois dans le pli.",
        "kit.step.cut": "Découpez le long des traits de coupe (traits pleins) ; les pointillés sont des plis.",
        "kit.step.cut_gutter": "Là où les pièces sont espacées, coupez chacune sur ses propres traits : la bande "
                               "entre elles tombe.",
        "kit.step.pawns": "Pions : découpez-les, pliez sur les pointillés, collez les moitiés et dépliez les socles.",
        "kit.step.board": "Plateau : coupez chaque feuille sur son pointillé ; collez-la sur la bande de sa voisine "
                          "(celle aux croix), le bord sur le trait plein, et scotchez au dos.",
    },
}


def kit_word(lang: str, key: str) -> str:
    """The engine's word for a kit key in a language (English where it has none; '' for optional keys)."""
    language = lang.split("-")[0]
    for table in (KIT_WORDS, KIT_STEPS):
        if key in table["en"]:
            return table.get(language, table["en"]).get(key, table["en"][key])
    return ""
