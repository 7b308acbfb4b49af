// The rules (LAYUNIN) and the About page (TUNGKOL SA LARO) in Filipino: the seed's text,
// magdagdon-rules.fil.txt, word for word.
export default {
  rules: [
    { h: "LAYUNIN", body: [
      { p: "Punuin ang 4×4 board habang bumubuo ng iisang magkakaugnay na field ng mga numero. Kumuha ng pinakamaraming puntos sa paggawa ng malalakas na row at column at pag-iwas sa mga RUIN." },
    ] },
    { h: "ISANG TURNO", body: [
      { ul: [
        "Pindutin ang I-ROLL. Magro-roll ng apat na standard D6.",
        "I-tap ang isang die, pagkatapos ay i-tap ang isa sa naka-highlight nitong valid na cell para ihanda ito sa board.",
        "Nakadepende sa napiling difficulty ang minimum na bilang ng dice na kailangan mong ilagay.",
        "Kapag naihanda na ang kinakailangang minimum, magiging available ang KUMPIRMAHIN. Maaari ka pang maglagay ng mas maraming dice bago kumpirmahin. Awtomatikong itatapon ang anumang hindi nagamit na dice kapag nagkumpirma ka.",
        "Bago ang KUMPIRMAHIN, puwedeng i-undo at baguhin ang mga nakahandang placement. Pagkatapos ng KUMPIRMAHIN, permanente na ang mga numerong nailagay.",
      ] },
    ] },
    { h: "DIFFICULTY", body: [
      { ul: [
        "PEACEFUL: 3 Majda Powers. Maglagay ng hindi bababa sa 2 dice bawat turno. Ang Power penalties ay −10, −20, at −40 puntos ayon sa pagkakasunod ng paggamit.",
        "SURVIVAL: 1 Majda Power. Maglagay ng hindi bababa sa 2 dice bawat turno. Ang paggamit ng Power ay nagkakahalaga ng −70 puntos.",
        "NIGHTMARE: 0 Majda Powers. Maglagay ng hindi bababa sa 3 dice bawat turno.",
        "Kung mas kaunti ang natitirang bakanteng cell kaysa sa normal na minimum, awtomatikong bababa ang kinakailangan sa bilang ng bakanteng cell. Kaya sa NIGHTMARE, 2 dice ang kailangan sa huling dalawang cell at 1 sa huling cell.",
        "Ang pagbabago ng difficulty sa SETTINGS ay magsisimula ng bagong laro. Hiwalay na itinatago ang High Scores para sa bawat difficulty.",
      ] },
    ] },
    { h: "VALID NA PAGLALAGAY", body: [
      { ul: [
        "Maaaring ilagay ang unang die ng laro sa kahit anong bakanteng cell.",
        "Ang bawat susunod na die ay dapat katabi nang pahalang o patayo ng kahit isang numeric cell: itaas, ibaba, kaliwa, o kanan. Hindi kasama ang diagonal na pagdikit.",
        "Ang bagong value ay dapat hindi hihigit sa 1 ang diperensya mula sa bawat numeric na kapitbahay na pahalang o patayo. Puwede ang magkaparehong value.",
        "Ang RUIN ay hindi numero. Hindi ito lumilikha ng koneksyon at hindi nito nililimitahan ang value ng mga katabing cell.",
        "Kasama na sa pag-check ng mga susunod na placement ang mga naunang inihanda sa parehong turno. Kaya maaaring baguhin ng pagkakasunod ng paglalagay ng dice kung ano ang valid.",
      ] },
      { p: "Halimbawa: kung ang isang bakanteng cell ay katabi ng parehong 3 at 4, 3 o 4 lang ang maaaring ilagay roon." },
    ] },
    { h: "MAJDA POWER", body: [
      { ul: [
        "Ang bilang ng paggamit ng Majda Power ay itinatalaga ng difficulty: PEACEFUL 3, SURVIVAL 1, NIGHTMARE 0.",
        "BAWAS −1 o DAGDAG +1 ay eksaktong nagbabago ng isang available na die nang 1. Hindi bababa sa 1 o lalampas sa 6 ang value. Ang isang pagbabago ay nagkakahalaga ng 1 paggamit.",
        "I-ROLL ULIT ay nagpapahintulot na pumili ng isa o higit pang available na dice at sabay-sabay silang i-roll ulit. Ang isang I-ROLL ULIT action ay nagkakahalaga ng 1 paggamit, gaano man karami ang napiling dice.",
        "Sa PEACEFUL, 10 puntos ang unang Power, dagdag na 20 ang pangalawa, at dagdag na 40 ang pangatlo. Kaya 70 puntos lahat kapag ginamit ang tatlo.",
        "Sa SURVIVAL, 70 puntos ang nag-iisang Power. Walang Powers ang NIGHTMARE kaya wala rin itong Power penalty.",
        "Opsyonal ang Powers at maaaring gamitin nang higit sa isang beses sa isang turno habang may natitirang paggamit.",
        "Kailangang ibalik muna mula sa board ang nakahandang die bago baguhin ang value nito o i-roll ulit.",
      ] },
    ] },
    { h: "MAGDAGDON AT MGA RUIN", body: [
      { ul: [
        "Kung walang valid na pagkakasunod-sunod sa kasalukuyang roll na makakapaglagay ng minimum na hinihingi ng napiling difficulty, papasok ang turno sa MAGDAGDON.",
        "Maaari kang gumamit ng Majda Power para iligtas ang roll kung may ibinibigay pa ang difficulty mo, o tanggapin ang MAGDAGDON kahit may natitira ka pang Powers.",
        "Kapag tinanggap mo ang MAGDAGDON, pumili ng anumang bakanteng permanenteng cell. Magiging RUIN ito hanggang matapos ang laro at matatapos ang turno.",
        "Bawat RUIN ay nagkakahalaga ng 15 puntos sa final scoring.",
        "Kung may valid na paraan para mailagay ang kinakailangang minimum, hindi maaaring pilitin ang MAGDAGDON sa pamamagitan ng maling nakahandang placement. I-undo o ayusin muli ang mga nakahandang placement.",
      ] },
    ] },
    { h: "PAGKUWENTA NG PUNTOS", body: [
      { ul: [
        "Ang bawat row at column ay nagbibigay ng kabuuan ng mga numeric cell nito. Dahil kabilang ang bawat cell sa isang row at isang column, epektibong dalawang beses binibilang ang bawat numero sa base score.",
        "Ang kumpletong numeric row o column ay maaaring makatanggap ng isang combination bonus: STRAIGHT +60, FOUR OF A KIND +40, o TWO PAIRS +20.",
        "Ang STRAIGHT ay dapat apat na eksaktong magkakasunod na value sa iisang direksyon, halimbawa 1-2-3-4, 3-4-5-6, 4-3-2-1, o 6-5-4-3.",
        "Ang line na may RUIN ay nagbibigay pa rin ng kabuuan ng natitirang numeric cell nito, pero walang combination bonus.",
        "Bawat RUIN ay nagbabawas ng 15 puntos sa total score.",
        "Pagkatapos ay ibabawas ang Majda Power penalties: PEACEFUL −10 / −20 / −40 ayon sa pagkakasunod ng paggamit; SURVIVAL −70 para sa nag-iisang paggamit; NIGHTMARE 0.",
      ] },
      { p: "Final Score = Base Score + Line Bonuses − Ruin Penalties − Power Penalties." },
    ] },
    { h: "PAGTATAPOS NG LARO", body: [
      { p: "Matatapos ang laro kapag ang lahat ng 16 cell ay may numero o RUIN. Agad na kakalkulahin ang final score mo, kasama ang lahat ng RUIN at Majda Power penalties, at awtomatikong ise-save sa High Scores table para sa difficulty na nilaro mo, kasama ang petsa, bilang ng mga turno, at nagamit na Majda Powers." },
    ] },
  ],
  about: [
    { p: "Ang MAGDAGDON ay isang CUBIRI ORIGINAL na iniaalay kay Majduška. Maligayang ika-20 kaarawan! ❤️" },
  ],
};
