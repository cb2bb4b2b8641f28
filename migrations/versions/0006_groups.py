"""Groups: a name and two links, a roster, and the games the group played

Revision ID: 0006_groups
Revises: 0005_ended_early
Create Date: 2026-12-01 20:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0006_groups'
down_revision = '0005_ended_early'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'groups',
        sa.Column('id', sa.String(length=16), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('edit_hash', sa.String(length=64), nullable=False),
        sa.Column('view_token', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_groups_edit_hash', 'groups', ['edit_hash'], unique=True)
    op.create_index('ix_groups_view_token', 'groups', ['view_token'], unique=True)
    op.create_table(
        'group_members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.String(length=16), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('key', sa.String(length=160), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('group_id', 'key'),
    )
    op.create_index('ix_group_members_group_id', 'group_members', ['group_id'])
    op.create_table(
        'group_games',
        sa.Column('game_id', sa.String(length=16), nullable=False),
        sa.Column('group_id', sa.String(length=16), nullable=False),
        sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_index('ix_group_games_group_id', 'group_games', ['group_id'])


def downgrade():
    op.drop_index('ix_group_games_group_id', table_name='group_games')
    op.drop_table('group_games')
    op.drop_index('ix_group_members_group_id', table_name='group_members')
    op.drop_table('group_members')
    op.drop_index('ix_groups_view_token', table_name='groups')
    op.drop_index('ix_groups_edit_hash', table_name='groups')
    op.drop_table('groups')
