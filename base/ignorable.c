/* Which code points draw nothing: shared by the sanitizer (which removes them from what is
 * shown) and the masker (which refuses a secret that holds one, as it could never match). */
#include "base.h"

bool cp_is_default_ignorable(uint32_t cp)
{
	/* Default_Ignorable_Code_Point, Unicode 15 (DerivedCoreProperties.txt); it includes
	 * every Bidi_Control. */
	static const uint32_t ranges[][2] = {
		{ 0x00AD, 0x00AD }, { 0x034F, 0x034F }, { 0x061C, 0x061C }, { 0x115F, 0x1160 },
		{ 0x17B4, 0x17B5 }, { 0x180B, 0x180F }, { 0x200B, 0x200F }, { 0x202A, 0x202E },
		{ 0x2060, 0x206F }, { 0x3164, 0x3164 }, { 0xFE00, 0xFE0F }, { 0xFEFF, 0xFEFF },
		{ 0xFFA0, 0xFFA0 }, { 0xFFF0, 0xFFF8 }, { 0x1BCA0, 0x1BCA3 }, { 0x1D173, 0x1D17A },
		{ 0xE0000, 0xE0FFF },
	};
	if (cp < 0xAD)
		return false;
	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
		if (cp >= ranges[i][0] && cp <= ranges[i][1])
			return true;
	return false;
}

bool cp_is_emoji_joiner(uint32_t cp)
{
	return cp == 0x200D || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF) ||
	       (cp >= 0xE0020 && cp <= 0xE007F);
}
