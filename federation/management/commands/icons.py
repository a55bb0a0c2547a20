"""`python manage.py icons`: the site's icons (federation/static/icons/), drawn from one list of
shapes into an SVG and, with Pillow (installed with WeasyPrint), into the PNG icons that the web
app manifest names (federation.pwa): 192 and 512 pixels, and 512 « maskable » (full bleed, the
drawing inside the safe circle of 80 % that a phone may crop to)."""

from pathlib import Path

from django.core.management.base import BaseCommand

FOLDER = Path(__file__).resolve().parents[2] / "static" / "icons"
FELT, PAPER, BEER = "#1f5f3f", "#fffdf8", "#c98a12"
SIZE = 512
# A card on the felt, a « T » on the card, two drops of beer: (shape, box on 512, fill, radius).
SHAPES = [
    ("rect", (136, 96, 376, 416), PAPER, 28),
    ("rect", (184, 164, 328, 208), FELT, 6),
    ("rect", (234, 164, 278, 356), FELT, 6),
    ("circle", (166, 126, 194, 154), BEER, 0),
    ("circle", (318, 358, 346, 386), BEER, 0),
]


def svg():
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}">']
    parts.append(f'<rect width="{SIZE}" height="{SIZE}" rx="96" fill="{FELT}"/>')
    for shape, (x0, y0, x1, y1), fill, radius in SHAPES:
        if shape == "rect":
            parts.append(
                f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="{radius}" fill="{fill}"/>'
            )
        else:
            parts.append(
                f'<circle cx="{(x0 + x1) / 2:g}" cy="{(y0 + y1) / 2:g}" r="{(x1 - x0) / 2:g}" fill="{fill}"/>'
            )
    outline = f'fill="none" stroke="{BEER}" stroke-width="8"'
    parts.append(f'<rect x="136" y="96" width="240" height="320" rx="28" {outline}/>')
    return "\n".join([*parts, "</svg>", ""])


def png(path, size, *, maskable=False):
    from PIL import Image, ImageDraw

    scale = 4  # drawn large, then reduced: smooth edges
    image = Image.new("RGBA", (SIZE * scale, SIZE * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    corner = 0 if maskable else 96 * scale
    draw.rounded_rectangle((0, 0, SIZE * scale - 1, SIZE * scale - 1), corner, fill=FELT)
    for shape, box, fill, radius in SHAPES:
        scaled = tuple(value * scale for value in box)
        if shape == "rect":
            draw.rounded_rectangle(scaled, radius * scale, fill=fill)
        else:
            draw.ellipse(scaled, fill=fill)
    draw.rounded_rectangle(
        (136 * scale, 96 * scale, 376 * scale, 416 * scale), 28 * scale, outline=BEER, width=8 * scale
    )
    image.resize((size, size), Image.LANCZOS).save(path, optimize=True)


class Command(BaseCommand):
    help = "Dessine les icônes du site (SVG et PNG 192, 512, 512 masquable) dans federation/static/icons/."

    def handle(self, *args, **options):
        FOLDER.mkdir(parents=True, exist_ok=True)
        (FOLDER / "icon.svg").write_text(svg(), encoding="utf-8")
        png(FOLDER / "icon-192.png", 192)
        png(FOLDER / "icon-512.png", 512)
        png(FOLDER / "icon-maskable-512.png", 512, maskable=True)
        self.stdout.write(self.style.SUCCESS(f"Icônes écrites dans {FOLDER.name}/."))
