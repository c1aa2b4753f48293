"""Words the engine itself prints (not a game's): the calibration sheet's instructions.

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
    text, edges = CALIBRATION[lang]
    return text.format(edge=edges[duplex], option="--back-offset")
