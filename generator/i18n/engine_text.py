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


# The kit cover's words by language; a game's own `kit.*` keys win.
KIT_WORDS = {
    "en": {"kit.title": "Print-and-play kit", "kit.contents": "What’s inside", "kit.printing": "How to print",
           "kit.print_steps": "1. Print at 100 % (“Actual size”), never “fit to page”; the bar on the first page "
                              "of each part must measure 50 mm.\n2. Print double-sided, flipping on the long edge: "
                              "backs follow their fronts.\n3. Cut along the crop marks."},
    "bg": {"kit.title": "Комплект за печат", "kit.contents": "Какво има вътре", "kit.printing": "Как да отпечатате",
           "kit.print_steps": "1. Печатайте в мащаб 100 % („Действителен размер“), никога „Побиране в страницата“; "
                              "лентата на първата страница на всяка част трябва да е 50 мм.\n2. Печатайте "
                              "двустранно, с обръщане по дългата страна: гърбовете следват лицата си.\n3. Изрежете "
                              "по маркерите за рязане."},
    "ru": {"kit.title": "Набор для печати", "kit.contents": "Что внутри", "kit.printing": "Как печатать",
           "kit.print_steps": "1. Печатайте в масштабе 100 % («Фактический размер»), никогда не «По размеру "
                              "страницы»; полоска на первой странице каждой части должна быть 50 мм.\n2. Печатайте "
                              "с двух сторон, с переворотом по длинному краю: рубашки идут за лицевыми "
                              "сторонами.\n3. Режьте по меткам обреза."},
    "hu": {"kit.title": "Nyomtatható játékcsomag", "kit.contents": "Mi van benne", "kit.printing": "Nyomtatás",
           "kit.print_steps": "1. Nyomtasson 100 %-os méretben („Tényleges méret”), soha ne „Oldalhoz igazítva”; "
                              "minden rész első oldalán a vonalnak 50 mm-esnek kell lennie.\n2. Nyomtasson "
                              "kétoldalasan, a hosszú élen fordítva: a hátlapok az előlapjaik után jönnek.\n3. Vágja "
                              "szét a vágójelek mentén."},
    "ka": {"kit.title": "დასაბეჭდი ნაკრები", "kit.contents": "რა არის შიგნით", "kit.printing": "როგორ დავბეჭდოთ",
           "kit.print_steps": "1. დაბეჭდეთ 100 %-ით („რეალური ზომა“), არასოდეს „გვერდზე მორგებით“; თითოეული "
                              "ნაწილის პირველ გვერდზე ზოლი 50 მმ უნდა იყოს.\n2. დაბეჭდეთ ორმხრივად, გრძელ "
                              "კიდეზე გადაბრუნებით: ზურგები თავიანთ წინა მხარეებს მოსდევს.\n3. ამოჭერით ჭრის "
                              "ნიშნების გასწვრივ."},
    "de": {"kit.title": "Print-and-Play-Set", "kit.contents": "Inhalt", "kit.printing": "So wird gedruckt",
           "kit.print_steps": "1. In 100 % („Tatsächliche Größe“) drucken, nie „An Seite anpassen“; der Balken auf "
                              "der ersten Seite jedes Teils muss 50 mm messen.\n2. Beidseitig drucken, Wenden an der "
                              "langen Kante: Die Rückseiten folgen ihren Vorderseiten.\n3. An den Schnittmarken "
                              "entlang schneiden."},
    "fr": {"kit.title": "Kit à imprimer", "kit.contents": "Contenu", "kit.printing": "Comment imprimer",
           "kit.print_steps": "1. Imprimez à 100 % (« Taille réelle »), jamais « Ajuster à la page » ; la barre de "
                              "la première page de chaque partie doit mesurer 50 mm.\n2. Imprimez en recto verso, "
                              "retournement sur le bord long : les dos suivent leurs faces.\n3. Découpez le long "
                              "des traits de coupe."},
}


def kit_word(lang: str, key: str) -> str:
    """The engine's word for a kit key in a language (English where it has none; '' for optional keys)."""
    return KIT_WORDS.get(lang.split("-")[0], KIT_WORDS["en"]).get(key, "")
