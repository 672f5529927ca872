// Words the fake builds display names, titles and descriptions from. The mix is deliberate:
// accents, non-Latin scripts, emoji, quotes and backslashes, so JSON escaping and UTF-8
// handling get exercised by every page of results.

enum Vocabulary {
    static let givenNames = [
        "Anna", "Ben", "Chloé", "Dmitri", "Élodie", "Farah", "Giulia", "Hiroshi", "Ingrid", "Jonas",
        "Kateřina", "Liam", "Mei", "Nils", "Olúwaseun", "Priya", "Quentin", "Rosa", "Søren", "Tomasz",
        "Uma", "Vítor", "Wen", "Ximena", "Yusuf", "Zoë", "Андрей", "Мария", "健太", "美咲",
    ]

    static let familyNames = [
        "Abbott", "Bergström", "Castillo", "Dubois", "Eriksen", "Fischer", "García", "Hughes", "Ito",
        "Jovanović", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "O'Brien", "Papadopoulos",
        "Quinn", "Rossi", "Schäfer", "Tanaka", "Üzüm", "Varga", "Walsh", "Yılmaz", "Zhou",
        "Смирнов", "Иванова", "山田", "김",
    ]

    /// Display-name patterns; `{g}` and `{f}` are replaced by a given and a family name.
    static let displayNamePatterns = [
        "{g} {f}", "{g} {f}", "{g} {f} Photography", "{g}.{f}", "{f} {g}", "{g} ({f})",
        "{g}_{f}_photos", "{g} {f} 📷", "the \"{g}\" archive", "{g}",
    ]

    static let titleWords = [
        "Harbour", "at dusk", "Morning light", "Old bridge", "Street scene", "Rain", "Market day",
        "Reflections", "Sunset over the bay", "Night walk", "Cathedral", "Café", "Snow", "Fog",
        "Mountains", "Ferry", "Festival", "Garden", "Tram", "Lighthouse", "Skyline", "Rooftops",
        "Blue hour", "Autumn", "Spring blossoms", "日落", "Закат", "Ηλιοβασίλεμα", "Église",
        "Straße", "\"Untitled\"", "IMG", "DSC", "#2", "(explored)", "🌅", "back\\slash",
    ]

    static let sentences = [
        "Taken from the north pier.",
        "Windy evening.",
        "Shot handheld, no tripod.",
        "Fujifilm X-T4, 23 mm f/2.",
        "Part of my <b>city walks</b> series.",
        "More at <a href=\"https://example.com/walks\" rel=\"nofollow\">my site</a>.",
        "Couldn't resist & had to stop the car.",
        "Lumière du matin sur les toits.",
        "Утро в старом городе.",
        "雨の日の散歩。",
        "Tags: #street #travel",
        "C:\\photos\\2025 — straight out of camera.",
    ]
}
